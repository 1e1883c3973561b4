// The data operations of the deprecated /v1/query API: `insert`, `select`, `count`, `update`,
// `delete` (Hasura v1 DML; the conformance setups load their rows with `insert`). Admin sees
// everything; a role reads through its select permissions and is refused the writes
// (v1-data-access.ts). Each runs one statement whose single text cell is the answer.

import type { BundleModel, Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError, type JsonPath } from '../errors/index.js';
import { bindParams, type PlanContext } from '../graphql/index.js';
import { compileSql, postgres, type Dialect, type ParamSlot, type Sql } from '../sql/index.js';
import type { Access, DataContext } from './v1-data-context.js';
import { countValue, selectValue } from './v1-data-select.js';
import { deleteStatement, insertStatement, updateStatement, type WriteStatement } from './v1-data-write.js';

/** The v1 data operation types. */
export type V1DataType = 'insert' | 'select' | 'count' | 'update' | 'delete';

/** What a v1 data operation runs against. */
export interface V1DataContext {
  /** The served model: only tracked tables are known. */
  readonly model: BundleModel;
  /** The pool, or the transaction the operation is part of. */
  readonly runner: Pick<Driver, 'queryText'>;
  /** The source whose tables `table` names (the operation's `source`, `default` when absent). */
  readonly source: string;
  /** Defaults to PostgreSQL. */
  readonly dialect?: Dialect;
  /** Who asks; absent or role `admin` is admin. */
  readonly session?: Session;
}

/** True for the operation types `runV1Data` runs. */
export function isV1DataType(type: string): type is V1DataType {
  return type === 'insert' || type === 'select' || type === 'count' || type === 'update' || type === 'delete';
}

/**
 * Runs one v1 data operation whose `args` sit at `path` (`['args']`). Answers: `select` an array
 * of objects keyed by column name; `count` `{count}`; the writes `{affected_rows, returning?}`.
 * Errors: `parse-failed` for a wrong shape (at the bare key, as Hasura: `$.limit`), `not-exists`
 * for an unknown table or column, `permission-denied` "no such column exists" for an unknown
 * selected or returned column, and the database's own errors as the driver maps them.
 */
export async function runV1Data(type: string, args: unknown, path: JsonPath, ctx: V1DataContext): Promise<Json> {
  const dialect = ctx.dialect ?? postgres;
  const stringifyNumeric = ctx.model.options.stringifyNumeric;
  const data: DataContext = {
    model: ctx.model, source: ctx.source, dialect, stringifyNumeric, base: path,
    access: accessOf(ctx.model, dialect, stringifyNumeric, ctx.session),
  };
  const statement = plan(type, args, data);
  if (statement.kind === 'answer') return statement.body as Json;
  if (type === 'insert' || type === 'update' || type === 'delete') await recordSession(ctx.runner, dialect, ctx.session);
  const { text, params } = compileSql(statement.sql, data.dialect);
  const body = await ctx.runner.queryText(text, params.map((p) => bind(p, ctx.session)));
  if (!statement.failure) return JSON.parse(body) as Json;
  // A guarded write answers `<n>:<json>`; a failed check (n > 0) is thrown, and the caller's
  // transaction rolls the write back.
  const colon = body.indexOf(':');
  if (body.slice(0, colon) !== '0') throw statement.failure;
  return JSON.parse(body.slice(colon + 1)) as Json;
}

/**
 * A write records who made it, as a GraphQL mutation does, so an event it captures carries the
 * session (`{"x-svc-role": "admin"}` for the admin). Hasura runs every v1 data operation in a
 * transaction that sets `hasura.user` first (RQL/DML: runTxWithCtx -> withUserInfo -> setHeadersTx);
 * tests-py test_events.py expects those session variables of changes made with v1 `insert`,
 * `update` and `delete`. run_sql on Postgres records it too (RunSQL.hs: runTxWithCtx, and
 * withUserInfo around the statements checked for metadata changes). The setting is local to the
 * operation's transaction.
 */
export async function recordSession(runner: Pick<V1DataContext['runner'], 'queryText'>, dialect: Dialect, session: Session | undefined): Promise<void> {
  if (session === undefined || !dialect.can.transactions) return;
  const set = compileSql(dialect.render.recordSession(), dialect);
  await runner.queryText(set.text, bindParams(set.params, {}, session));
}

function accessOf(model: BundleModel, dialect: Dialect, stringifyNumeric: boolean, session: Session | undefined): Access {
  if (session === undefined || session.role === 'admin') return { kind: 'admin' };
  const plan: PlanContext = {
    model, role: session.role, dialect, stringifyNumeric, fragments: new Map(), hints: { valueSensitive: false },
    variables: {}, structural: new Set(),
  };
  return { kind: 'role', session, plan };
}

/**
 * One parameter's value. JSON slots get JSON text (request values and permission literals
 * alike); session slots (only in a role's filters) are bound as the GraphQL engine binds them,
 * except that a variable the session lacks reads as null, as Hasura's v1 lookup does.
 */
function bind(slot: ParamSlot, session: Session | undefined): unknown {
  const src = slot.source;
  if (src.kind === 'value') {
    if (src.value === null || src.value === undefined) return null;
    return slot.type === 'json' || slot.type === 'jsonb' ? JSON.stringify(src.value) : src.value;
  }
  if (src.kind === 'session' && session && (src.name === '*' || session.variables[src.name] !== undefined)) {
    return bindParams([slot], {}, session)[0];
  }
  return null;
}

// The operation's IR, rendered by the source's dialect; or the answer when there is nothing to run.
function plan(type: string, args: unknown, ctx: DataContext): { readonly kind: 'sql'; readonly sql: Sql; readonly failure?: ApiError } | { readonly kind: 'answer'; readonly body: unknown } {
  const rc = { dialect: ctx.dialect, hints: { valueSensitive: false } };
  const write = (w: WriteStatement) => (w.kind === 'answer' ? w : w.failure
    ? { kind: 'sql' as const, sql: ctx.dialect.render.mutation(w.statement, rc), failure: w.failure }
    : { kind: 'sql' as const, sql: ctx.dialect.render.mutationValue(w.statement, rc) });
  switch (type) {
    case 'select': return { kind: 'sql', sql: ctx.dialect.render.valueStatement(selectValue(ctx, args), rc) };
    case 'count': return { kind: 'sql', sql: ctx.dialect.render.valueStatement(countValue(ctx, args), rc) };
    case 'insert': return write(insertStatement(ctx, args));
    case 'update': return write(updateStatement(ctx, args));
    case 'delete': return write(deleteStatement(ctx, args));
    default: throw new ApiError('parse-failed', `unknown v1 data operation "${type}"`, 400, ['type']);
  }
}
