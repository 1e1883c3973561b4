// What the template tests share: the demo bundle with a second role whose invoice permission is the
// customer's (so templates several roles have can be seen written once), and a driver that records
// every statement the engine sends.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, writeBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import type { Driver } from '../../runtime/drivers/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The demo (fixtures/chinook) compiled with one more role, `auditor`, whose invoice permission is the customer's. */
export async function demoWithAuditor(): Promise<Bundle> {
  const md = JSON.parse(await readFile(join(ROOT, 'fixtures/chinook/metadata.json'), 'utf8')) as { sources: { tables: { table: { name: string }; select_permissions?: { role: string }[] }[] }[] };
  const invoice = md.sources[0]!.tables.find((t) => t.table.name === 'invoice')!;
  const customer = invoice.select_permissions!.find((p) => p.role === 'customer')!;
  invoice.select_permissions!.push({ ...JSON.parse(JSON.stringify(customer)), role: 'auditor' });
  const parsed = parseMetadata(md);
  if (!parsed.value) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(ROOT, 'fixtures/chinook/introspection.json'), 'utf8')));
  return buildBundle({ metadata: parsed.value, introspection: { default: snap }, engineVersion: 'test' });
}

/** demoWithAuditor written to a new temporary folder named `prefix...` (the caller removes it). */
export async function writtenDemoWithAuditor(prefix: string): Promise<{ dir: string; bundle: Bundle }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const bundle = await demoWithAuditor();
  if (bundle.inconsistencies.length > 0) throw new Error(`the demo is inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  await writeBundle(dir, bundle);
  return { dir, bundle };
}

/** A statement as the engine sent it. */
export interface SentStatement {
  readonly text: string;
  readonly params: readonly unknown[];
}

/** `inner`, with every statement sent through `queryText` pushed onto `ran` first. */
export function recordingDriver(inner: Driver, ran: SentStatement[]): Driver {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'queryText') {
        return (text: string, params: readonly unknown[], ...rest: unknown[]) => {
          ran.push({ text, params });
          return (target.queryText as (...a: unknown[]) => Promise<string>)(text, params, ...rest);
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}
