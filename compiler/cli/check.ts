import type { StoredPlanModel } from '../../runtime/bundle/index.js';
import type { CompiledSql } from '../../runtime/sql/index.js';
import { paramHeader } from '../sql/index.js';
import { FilterProver, type ReferenceProof } from './check-filters.js';
import { checkHashes, checkPersisted } from './check-persisted.js';
import { proveOnIr, type IrProof } from './check-ir.js';
import { checkTemplates, type TemplateProof } from './check-templates.js';
import { tableLabel } from '../emit/index.js';
import { readBundleDir, roleOfFile, type BundleDir } from './bundle-dir.js';
import { CliError } from './project.js';
import { checkRemotes, type RemoteCheck } from './check-remote.js';

export interface CheckOptions {
  readonly bundle: string;
  readonly json?: boolean;
  /** Introspect each remote schema again and compare it with the bundle's (checkRemotes). */
  readonly remote?: boolean;
}

/** One failed reference: the file, the table and why. */
interface Missing {
  readonly file: string;
  readonly role: string;
  readonly table: string;
  readonly operation: string;
  readonly problem: string;
}

/** What `kiln check` found; `ok` decides the exit code. */
export interface CheckReport {
  readonly ok: boolean;
  readonly persisted: { readonly listed: boolean; readonly checked: number; readonly problems: readonly string[] };
  readonly hashes: { readonly checked: number; readonly problems: readonly string[] };
  /** The proof on the IR: every read of every query root field's plan carries the role's filter and limit. */
  readonly ir: IrProof;
  /** engine.mjs's permission templates, each the role's predicate compiled again. */
  readonly templates: TemplateProof;
  /** With --remote: the bundle's remote schemas compared with their live servers. */
  readonly remote?: RemoteCheck;
  /** Role -> table -> `ok` | `MISSING` (tables no statement of the role touches are left out). */
  readonly filters: { readonly [role: string]: { readonly [table: string]: 'ok' | 'MISSING' } };
  readonly missing: readonly Missing[];
  readonly statements: number;
  readonly references: number;
}

/** Runs the checks over a bundle directory. */
export function checkBundle(b: BundleDir): CheckReport {
  const prover = new FilterProver(b.model);
  const filters: { [role: string]: { [table: string]: 'ok' | 'MISSING' } } = {};
  for (const role of b.model.roles) filters[role] = {};
  const missing: Missing[] = [];
  let statements = 0;
  let references = 0;
  for (const [file, text, fileRole] of sources(b)) {
    const role = fileRole ?? roleOfFile(file);
    if (role === null) continue;
    statements++;
    const cells = (filters[role] ??= {});
    let proofs: ReferenceProof[];
    if (!b.model.roles.includes(role)) proofs = [{ table: '?', operation: 'select', problem: `role "${role}" is not in the bundle` }];
    else proofs = prover.proveFile(role, text);
    for (const p of proofs) {
      references++;
      const table = tableLabel(b.model, p.table);
      if (p.problem) {
        cells[table] = 'MISSING';
        missing.push({ file, role, table, operation: p.operation, problem: p.problem });
      } else {
        cells[table] ??= 'ok';
      }
    }
  }
  const persisted = checkPersisted(b);
  const hashes = checkHashes(b);
  const ir = proveOnIr(b);
  const templates = checkTemplates(b.model);
  const ok = missing.length === 0 && persisted.problems.length === 0 && hashes.problems.length === 0 && ir.problems.length === 0 && templates.problems.length === 0;
  return { ok, persisted, hashes, ir, templates, filters, missing, statements, references };
}

// The statement files of the bundle, then the stored plans engine.mjs runs for persisted queries
// (the runtime executes those, not the files: both must carry the filters).
function* sources(b: BundleDir): Generator<readonly [string, string, string | null]> {
  for (const [file, text] of b.files) yield [file, text, null];
  for (const q of b.model.persisted?.queries ?? []) {
    for (const [role, plan] of Object.entries(q.plans)) {
      const text = storedStatements(plan).map((s) => `${paramHeader(s).join('\n')}\n${s.text};\n`).join('');
      if (text) yield [`engine.mjs persisted ${q.collection}/${q.name}`, text, role];
    }
  }
}

function storedStatements(plan: StoredPlanModel | null): CompiledSql[] {
  if (plan === null) return [];
  switch (plan.kind) {
    case 'static': return [];
    case 'sql': return [plan.sql];
    case 'multi': return plan.parts.map((p) => p.sql);
    case 'mutation': return plan.fields.flatMap((f) => (f.kind === 'sql' ? f.statements.map((s) => s.sql) : []));
  }
}

/** `kiln check --bundle DIR`: prints the report; exit 1 when any check fails. */
export async function checkCommand(o: CheckOptions): Promise<void> {
  const b = await readBundleDir(o.bundle);
  const local = checkBundle(b);
  const remote = o.remote ? await checkRemotes(b) : undefined;
  const r: CheckReport = remote ? { ...local, ok: local.ok && remote.problems.length === 0, remote } : local;
  process.stdout.write(o.json ? JSON.stringify(r, null, 2) + '\n' : printReport(b, r));
  if (!r.ok) {
    const n = r.missing.length + r.persisted.problems.length + r.hashes.problems.length + r.ir.problems.length + r.templates.problems.length
      + (r.remote?.problems.length ?? 0);
    throw new CliError(`check failed: ${n} problem(s) in ${o.bundle}`, 1);
  }
}

function printReport(b: BundleDir, r: CheckReport): string {
  const out: string[] = [`bundle ${b.dir}: ${b.model.roles.length} role(s), ${Object.keys(b.model.tables).length} table(s)`, ''];
  out.push(r.persisted.listed ? `persisted queries: ${r.persisted.checked} checked, ${r.persisted.problems.length} invalid`
    : 'persisted queries: 0 (manifest.json has no persisted section)');
  for (const p of r.persisted.problems) out.push(`  INVALID ${p}`);
  out.push(`files: ${r.hashes.checked} compared with manifest.json sha256, ${r.hashes.problems.length} differ`);
  for (const p of r.hashes.problems) out.push(`  CHANGED ${p}`);
  // The text-level proof reads PostgreSQL's SQL; a BigQuery bundle's statements are proved on the IR below.
  const textProof = !b.model.sources.some((src) => src.dialect === 'bigquery');
  if (textProof) {
    out.push('', `row filters: ${r.references} table reference(s) in ${r.statements} statement(s); each must carry the role's filter`);
    out.push(...matrix(b, r), '');
  } else {
    out.push('', 'row filters in the SQL text: not read for BigQuery statements (proved on the IR, next line)');
  }
  for (const m of r.missing) out.push(`MISSING ${m.file}: ${m.table} (${m.operation}): ${m.problem}`);
  out.push(`plans proved on the IR: ${r.ir.checked} root field plan(s), every read carries its role's filter and limit; ${r.ir.problems.length} gap(s)`);
  for (const p of r.ir.problems) out.push(`  UNGUARDED ${p}`);
  out.push(`permission templates in engine.mjs: ${r.templates.checked} compared with the permissions compiled again; ${r.templates.problems.length} differ`);
  for (const p of r.templates.problems) out.push(`  TEMPLATE ${p}`);
  out.push(...remoteLines(b, r.remote));
  out.push(r.ok ? 'check passed' : 'check FAILED', '');
  return out.join('\n');
}

// The remote schemas' part: compared with the live servers (--remote), or how to compare them.
function remoteLines(b: BundleDir, r: RemoteCheck | undefined): string[] {
  const n = Object.keys((b.manifest['remoteSchemas'] ?? {}) as object).length;
  if (!r) return n > 0 ? [`remote schemas: ${n} in the bundle, not compared with their servers (add --remote)`] : [];
  return [`remote schemas: ${r.checked} compared with their live servers; ${r.problems.length} drift(s)`,
    ...r.problems.map((p) => `  DRIFT ${p}`), ...r.notes.map((p) => `  note ${p}`)];
}

// Role x table: ok, MISSING, or `-` where no statement of the role touches the table.
function matrix(b: BundleDir, r: CheckReport): string[] {
  const roles = Object.keys(r.filters).sort();
  const tables = [...new Set([...Object.keys(b.model.tables).map((id) => tableLabel(b.model, id)), ...roles.flatMap((x) => Object.keys(r.filters[x]!))])].sort();
  const first = Math.max(5, ...tables.map((t) => t.length));
  const widths = roles.map((x) => Math.max(x.length, 7));
  const row = (head: string, cells: readonly string[]): string => [head.padEnd(first), ...cells.map((c, i) => c.padEnd(widths[i]!))].join('  ').trimEnd();
  return [row('table', roles), ...tables.map((t) => row(t, roles.map((x) => r.filters[x]![t] ?? '-')))];
}
