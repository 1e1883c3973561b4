// Runs a planned mutation: every statement in field order on one connection, inside one
// transaction unless the plan is a single statement no guard can fail (then PostgreSQL's own
// statement atomicity is enough, and BEGIN/COMMIT would cost two round trips).

import type { Session } from '../bundle/index.js';
import { relationOf, SENT_ALONE_WRITE, type CallOptions, type Driver, type TransactionRunner } from '../drivers/index.js';
import { ApiError, assert } from '../errors/index.js';
import { compileSql } from '../sql/index.js';
import { bindParams } from './bind.js';
import { errorPathFor } from './mutation-error-path.js';
import type { MutationFieldPlan, MutationPlan, NamedSql } from './mutation-plan.js';
import { KEPT_ROWS } from './mutation-output.js';

// The codes mapDatabaseError gives a statement's failure (connection failures are 500s, left at `$`).
const DATABASE_CODES: ReadonlySet<string> = new Set(['constraint-violation', 'data-exception', 'permission-error', 'constraint-error', 'bad-request']);

/** The `data` object's text of a mutation. A failed guard throws its ApiError (and so rolls the transaction back). */
export function runMutation(plan: MutationPlan, driver: Driver, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
  // The usual mutation, one field of one statement outside a transaction (bench Q7): its
  // statement's promise and one then, without the closures and awaits of the general path. Its
  // own implicit transaction, so it is sent alone: the driver may pipeline it.
  const only = plan.fields.length === 1 ? plan.fields[0]! : null;
  if (!plan.transactional && !plan.recordsSession && only?.kind === 'sql' && !only.list && only.statements.length === 1 && !only.statements[0]!.output) {
    try {
      return runOne(driver, only.statements[0]!, variables, session, SENT_ALONE_WRITE).then(
        (value) => `{${JSON.stringify(only.key)}:${value}}`,
        (e: unknown) => { throw atInsert(only, e); });
    } catch (e) {
      return Promise.reject(atInsert(only, e));
    }
  }
  return runFields(plan, driver, variables, session);
}

/** A database error of an insert reported at the insert that failed (Hasura's paths); any other error as it is. */
function atInsert(f: Extract<MutationFieldPlan, { kind: 'sql' }>, e: unknown): unknown {
  if (!(e instanceof ApiError) || e.path.length > 0 || !f.errorPaths || !DATABASE_CODES.has(e.code)) return e;
  const rel = relationOf(e);
  return e.at(...errorPathFor(f.errorPaths, rel?.schema ?? null, rel?.table ?? null));
}

async function runFields(plan: MutationPlan, driver: Driver, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
  const run = async (tx: Pick<TransactionRunner, 'queryText'>): Promise<string> => {
    if (plan.recordsSession) {
      // The session JSON (lower-case keys, with x-svc-role) for the capture of event triggers, local
      // to the mutation's transaction; a parameter like every session value.
      const set = compileSql(driver.dialect.render.recordSession(), driver.dialect);
      await tx.queryText(set.text, bindParams(set.params, variables, session), 'set_session');
    }
    const object = async (fields: readonly MutationFieldPlan[]): Promise<string> => {
      const parts: string[] = [];
      for (const f of fields) {
        if (f.kind === 'static') { parts.push(`${JSON.stringify(f.key)}:${f.json}`); continue; }
        if (f.kind === 'group') { parts.push(`${JSON.stringify(f.key)}:${await object(f.fields)}`); continue; }
        const values: string[] = [];
        try {
          for (const s of f.statements) {
            const answer = await runOne(tx, s, variables, session);
            // The response read after the writes, from the rows the first statement kept.
            values.push(s.output ? await runOne(tx, s.output, { ...variables, [KEPT_ROWS]: JSON.parse(answer) as unknown }, session) : answer);
          }
        } catch (e) {
          throw atInsert(f, e);
        }
        parts.push(`${JSON.stringify(f.key)}:${f.list ? `[${values.join(',')}]` : values[0] ?? 'null'}`);
      }
      return `{${parts.join(',')}}`;
    };
    return object(plan.fields);
  };
  return plan.transactional ? driver.transaction(run) : run(driver);
}

// Not an async function: the statement's promise and one then (every mutation statement comes here).
function runOne(tx: Pick<TransactionRunner, 'queryText'>, s: NamedSql, variables: { readonly [k: string]: unknown }, session: Session,
  opts?: CallOptions): Promise<string> {
  return tx.queryText(s.sql.text, bindParams(s.sql.params, variables, session), s.name, undefined, opts).then((text) => guarded(s, text));
}

// A statement's `<failed guard>:<json>` answer: the JSON, or the failed guard's error thrown.
function guarded(s: NamedSql, text: string): string {
  const colon = text.indexOf(':');
  const failed = Number(text.slice(0, colon));
  if (failed === 0) return text.slice(colon + 1);
  const error = s.errors[failed - 1];
  assert(error, `mutation guard ${failed} has no error`);
  throw error;
}
