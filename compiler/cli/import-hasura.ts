// `kiln import-hasura`: runs the importer and prints its report (what was renamed, what was not carried).

import { HasuraProjectError, importHasura, type ImportReport } from '../import-hasura/index.js';
import { CliError } from './project.js';

/** The report as the lines the command prints. */
export function formatReport(r: ImportReport, out: string): string[] {
  const lines = [`imported a config v${r.configVersion} project: ${r.tables} table(s) into ${out}/metadata`];
  const dbs = Object.entries(r.migrations);
  lines.push(dbs.length === 0 ? 'no migrations' : `migrations into ${out}/migrations: ${dbs.map(([d, n]) => `${d} ${n}`).join(', ')}`);
  const renamed = Object.entries(r.renamed);
  lines.push(renamed.length === 0 ? 'renamed: nothing (no x-hasura-* or HASURA_GRAPHQL_* found)' : 'renamed (x-hasura-* -> x-svc-*, HASURA_GRAPHQL_* -> SVC_GRAPHQL_*):');
  for (const [kind, n] of renamed) lines.push(`  ${kind}: ${n}`);
  if (r.notCarried.length > 0) lines.push('not carried:', ...r.notCarried.map((x) => `  ${x}`));
  if (r.sqlNotes.length > 0) lines.push('migration SQL naming Hasura\'s words (copied unchanged; review them):', ...r.sqlNotes.map((x) => `  ${x}`));
  return lines;
}

/** `kiln import-hasura PROJECT --out DIR`. */
export async function importHasuraCommand(project: string, o: { out: string; json?: boolean }): Promise<void> {
  let report: ImportReport;
  try {
    report = await importHasura(project, o.out);
  } catch (e) {
    if (e instanceof HasuraProjectError) throw new CliError(e.message, 2);
    throw e;
  }
  if (o.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else process.stdout.write(formatReport(report, o.out).join('\n') + '\n');
}
