// Runs a planned mutation: every statement in field order on one connection, inside one
// transaction unless the plan is a single statement no guard can fail (then PostgreSQL's own
// statement atomicity is enough, and BEGIN/COMMIT would cost two round trips).

import type { Session } from '../bundle/index.js';
import { relationOf, type Driver, type TransactionRunner } from '../drivers/index.js';
import { ApiError, assert } from '../errors/index.js';
import { compileSql } from '../sql/index.js';
import { bindParams } from './bind.js';
import { errorPathFor } from './mutation-error-path.js';
import type { MutationFieldPlan, MutationPlan, NamedSql } from './mutation-plan.js';
import { KEPT_ROWS } from './mutation-output.js';

// The codes mapDatabaseError gives a statement's failure (connection failures are 500s, left at `$`).
const DATABASE_CODES: ReadonlySet<string> = new Set(['constraint-violation', 'data-exception', 'permission-error', 'constraint-error', 'bad-request']);

/** The `data` object's text of a mutation. A failed guard throws its ApiError (and so rolls the transaction back). */
export async function runMutation(plan: MutationPlan, driver: Driver, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
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
          // A database error of an insert is reported at the insert that failed (Hasura's paths).
          if (!(e instanceof ApiError) || e.path.length > 0 || !f.errorPaths || !DATABASE_CODES.has(e.code)) throw e;
          const rel = relationOf(e);
          throw e.at(...errorPathFor(f.errorPaths, rel?.schema ?? null, rel?.table ?? null));
        }
        parts.push(`${JSON.stringify(f.key)}:${f.list ? `[${values.join(',')}]` : values[0] ?? 'null'}`);
      }
      return `{${parts.join(',')}}`;
    };
    return object(plan.fields);
  };
  return plan.transactional ? driver.transaction(run) : run(driver);
}

async function runOne(tx: Pick<TransactionRunner, 'queryText'>, s: NamedSql, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
  const text = await tx.queryText(s.sql.text, bindParams(s.sql.params, variables, session), s.name);
  const colon = text.indexOf(':');
  const failed = Number(text.slice(0, colon));
  if (failed === 0) return text.slice(colon + 1);
  const error = s.errors[failed - 1];
  assert(error, `mutation guard ${failed} has no error`);
  throw error;
}
