import { readBundleDir, type BundleDir } from './bundle-dir.js';
import { diffModels, widens, type AccessChange } from './diff-model.js';
import { remoteChanges } from './diff-remote.js';
import { unifiedDiff } from './line-diff.js';
import { CliError } from './project.js';

export interface DiffOptions {
  readonly json?: boolean;
}

/** A statement or schema file that differs between the bundles. */
export interface FileChange {
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** For changed .sql files: hunks of the changed lines (short). */
  readonly diff: readonly string[];
}

/** What `kiln diff` found for one role. */
export interface RoleDiff {
  readonly gainedAccess: boolean;
  readonly changes: readonly AccessChange[];
  readonly files: readonly FileChange[];
}

export interface DiffReport {
  readonly old: string;
  readonly new: string;
  /** True when some role may see or write more: the exit code is 1. */
  readonly widened: boolean;
  readonly roles: { readonly [role: string]: RoleDiff };
}

/** Compares two bundles role by role. */
export function diffBundles(a: BundleDir, b: BundleDir): DiffReport {
  const changes = [...diffModels(a.model, b.model), ...remoteChanges(a, b)];
  const files = fileChanges(a, b);
  const roles: { [role: string]: RoleDiff } = {};
  // Roles with a remote schema permission only are roles too.
  for (const role of [...new Set([...a.model.roles, ...b.model.roles, ...changes.map((c) => c.role)])].sort()) {
    const mine = changes.filter((c) => c.role === role);
    roles[role] = { gainedAccess: mine.some(widens), changes: mine, files: files.filter((f) => roleOf(f.path) === role) };
  }
  return { old: a.dir, new: b.dir, widened: changes.some(widens), roles };
}

// sql/<role>/..., persisted/<role>/..., schema/<role>.graphql
function roleOf(path: string): string | null {
  return /^(?:sql|persisted)\/([^/]+)\//.exec(path)?.[1] ?? /^schema\/(.+)\.graphql$/.exec(path)?.[1] ?? null;
}

function fileChanges(a: BundleDir, b: BundleDir): FileChange[] {
  const paths = [...new Set([...a.files.keys(), ...b.files.keys()])].sort();
  const out: FileChange[] = [];
  for (const path of paths) {
    const x = a.files.get(path);
    const y = b.files.get(path);
    if (x === y) continue;
    if (x === undefined) out.push({ path, change: 'added', diff: [] });
    else if (y === undefined) out.push({ path, change: 'removed', diff: [] });
    else out.push({ path, change: 'changed', diff: path.endsWith('.sql') ? unifiedDiff(x, y) : [] });
  }
  return out;
}

/** `kiln diff OLD NEW`: prints the report; exit 1 when a role gained access. */
export async function diffCommand(oldDir: string, newDir: string, o: DiffOptions): Promise<void> {
  const [a, b] = [await readBundleDir(oldDir), await readBundleDir(newDir)];
  const r = diffBundles(a, b);
  process.stdout.write(o.json ? JSON.stringify(r, null, 2) + '\n' : printDiff(r));
  if (r.widened) {
    const who = Object.entries(r.roles).filter(([, d]) => d.gainedAccess).map(([role]) => role);
    throw new CliError(`role(s) gained access: ${who.join(', ')}`, 1);
  }
}

const DIFFS_PER_ROLE = 3;

const MARK: { readonly [v: string]: string } = {
  widened: 'WIDENED', narrowed: 'narrowed', 'changed, possibly widened': 'CHANGED, POSSIBLY WIDENED', renamed: 'renamed', equivalent: 'equivalent',
};

function printDiff(r: DiffReport): string {
  const out: string[] = [`kiln diff ${r.old} -> ${r.new}`, ''];
  for (const [role, d] of Object.entries(r.roles)) {
    if (!d.changes.length && !d.files.length) { out.push(`role ${role}: unchanged`); continue; }
    out.push(`role ${role}: ${d.gainedAccess ? 'GAINED ACCESS' : d.changes.length ? 'no access gained' : 'same access (only the files changed)'}`);
    for (const c of d.changes) {
      const where = c.table ? `${c.table} ${c.operation}: ` : '';
      out.push(`  [${MARK[c.verdict]}] ${where}${c.detail}`);
      if (c.before !== undefined) out.push(`      old: ${c.before}`, `      new: ${c.after}`);
    }
    // The first few statement diffs show the shape of the change; --json carries every one.
    let shown = 0;
    for (const f of d.files) {
      out.push(`  ${f.path} ${f.change}`);
      if (f.diff.length && shown++ < DIFFS_PER_ROLE) for (const line of f.diff) out.push(`      ${line}`);
    }
    if (shown > DIFFS_PER_ROLE) out.push(`  (diffs of ${shown - DIFFS_PER_ROLE} more file(s) left out; --json has them all)`);
  }
  if (Object.values(r.roles).some((d) => d.changes.some((c) => c.aspect === 'remote field'))) {
    out.push('', 'remote fields are as a role sees them with SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS=true; with it off every role sees admin\'s');
  }
  const gained = Object.entries(r.roles).filter(([, d]) => d.gainedAccess).map(([role]) => role);
  out.push('', gained.length ? `result: ${gained.length} role(s) gained access (${gained.join(', ')})` : 'result: no role gained access', '');
  return out.join('\n');
}
