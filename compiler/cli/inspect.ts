import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ActionExecutor } from '../../runtime/actions/index.js';
import { DELTA_SUFFIX, loadBundle, readLinks, storedStatement } from '../../runtime/bundle/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { dialectNamed, postgres } from '../../runtime/sql/index.js';
import type { Driver } from '../../runtime/drivers/index.js';
import { formatSql, paramHeader } from '../sql/index.js';
import { CliError } from './project.js';

export interface InspectOptions {
  readonly bundle: string;
  readonly role?: string;
  readonly field?: string;
  readonly query?: string;
  readonly variables?: string;
  readonly operationName?: string;
}

/** `kiln inspect`: the stored SQL of a role's root fields, or the SQL a query compiles to. */
export async function inspectCommand(o: InspectOptions): Promise<void> {
  const role = o.role ?? 'admin';
  // A wrong --bundle path should say so, not that the role has no SQL.
  if (!existsSync(join(o.bundle, 'manifest.json'))) throw new CliError(`${o.bundle} is not a kiln bundle (no manifest.json; write one with kiln compile)`, 2);
  if (o.query) { process.stdout.write(await sqlOfQuery(o, role)); return; }
  const dir = join(o.bundle, 'sql', role);
  let files: string[];
  // Statements the role shares with others are listed in links.json and stored once in shared/.
  let links: { [file: string]: string } = {};
  try {
    const names = await readdir(dir);
    if (names.includes('links.json')) {
      // Roles with the same links share one file in shared/ (runtime/bundle layout.ts).
      const text = await readFile(join(dir, 'links.json'), 'utf8');
      const shared = /^\{"links":"(\w+)"\}\s*$/.exec(text);
      const own = shared ? await readFile(join(o.bundle, 'shared', `${shared[1]}.links.json`), 'utf8').catch(() => undefined) : undefined;
      links = readLinks(text, () => own);
    }
    // A statement stored as the changes of another is `<field>.sql.delta.json` (runtime/bundle layout.ts).
    const own = names.map((f) => (f.endsWith(`.sql${DELTA_SUFFIX}`) ? f.slice(0, -DELTA_SUFFIX.length) : f)).filter((f) => f.endsWith('.sql'));
    files = [...own, ...Object.keys(links)].sort();
  } catch {
    const roles = (await readdir(join(o.bundle, 'sql')).catch(() => [])).sort();
    throw new CliError(`no SQL for role "${role}" in ${o.bundle}; roles: ${roles.join(', ')}`, 2);
  }
  if (o.field) {
    // `--field F` is a root field's query or mutation SQL; `--field F.subscription` its live-query SQL.
    const fields = files.filter((f) => !f.endsWith('.subscription.sql')).map((f) => f.slice(0, -4));
    if (!files.includes(`${o.field}.sql`)) {
      throw new CliError(`role "${role}" has no root field "${o.field}"; it has: ${fields.join(', ')} (add .subscription for a live query's SQL)`, 2);
    }
    files = [`${o.field}.sql`];
  }
  const read = (path: string): string | undefined => {
    try {
      return readFileSync(join(o.bundle, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  for (const f of files) {
    const whole = links[f] ? undefined : read(`sql/${role}/${f}`);
    const body = whole === undefined ? storedStatement(links[f] ? `shared/${links[f]}.sql` : `sql/${role}/${f}`, read) : undefined;
    if (whole === undefined && body === undefined) throw new CliError(`${o.bundle}: the SQL of ${role}/${f} is missing`, 2);
    process.stdout.write((whole ?? `-- role: ${role}\n${body!}`) + (files.length > 1 ? '\n' : ''));
  }
}

async function sqlOfQuery(o: InspectOptions, role: string): Promise<string> {
  const bundle = await loadBundle(o.bundle);
  if (!bundle.model.roles.includes(role)) throw new CliError(`role "${role}" is not in this bundle; roles: ${bundle.model.roles.join(', ')}`, 2);
  // Printed in the dialect the engine plans in: its (first) source's, T-SQL for an mssql source.
  const dialect = dialectNamed(bundle.model.sources[0]?.dialect ?? 'postgres') ?? postgres;
  const noDb: Driver = {
    dialect,
    queryText: () => Promise.reject(new Error('inspect does not run queries')),
    query: () => Promise.reject(new Error('inspect does not run queries')),
    runScript: () => Promise.reject(new Error('inspect does not run queries')),
    transaction: () => Promise.reject(new Error('inspect does not run queries')),
    close: async () => {},
  };
  const actions = bundle.model.actions?.actions.length ? { actions: new ActionExecutor({ model: bundle.model }) } : {};
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => noDb, ...actions });
  const query = await readFile(o.query!, 'utf8');
  const variables = o.variables ? JSON.parse(o.variables) as Record<string, unknown> : {};
  try {
    const req = { query, variables, operationName: o.operationName ?? null };
    const session = { role, variables: {}, isAdmin: role === 'admin' };
    // Action fields: the handler call and the SQL of the output's relationships.
    const described = engine.describeActions(req, session);
    if (described !== null) return `${described}\n`;
    const plan = engine.plan(req, session);
    if (plan.kind === 'static') return `-- answered without the database:\n-- ${plan.body}\n`;
    const parts = plan.kind === 'sql' ? [plan] : plan.parts;
    return parts.map((p) => `${[`-- role: ${role}`, `-- source: ${p.source}`, ...paramHeader(p.sql, undefined, 1, dialect.placeholder)].join('\n')}\n${formatSql(p.sql.text)};\n`).join('\n');
  } catch (e) {
    const err = e as { code?: string; message: string };
    throw new CliError(`the query does not compile for role "${role}": ${err.message}${err.code ? ` (${err.code})` : ''}`, 1);
  }
}
