// `--help` (or `-h`) for the scripts run by hand: prints the comment block at the top of the
// script that asks (its usage and options are written there) and exits.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function helpOnRequest(scriptUrl) {
  const args = process.argv.slice(2);
  if (!args.includes('--help') && !args.includes('-h')) return;
  const out = [];
  for (const line of readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n')) {
    if (line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/ ?/, ''));
  }
  console.log(out.join('\n'));
  process.exit(0);
}
