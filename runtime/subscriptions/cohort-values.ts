// A new subscriber's values are checked against their types before it joins a cohort, as Hasura's
// validateVariables does when it plans a live query (Execute/Subscription/Plan.hs): the poller runs
// one statement for every cohort, so a value the database cannot read (a uuid that is not one)
// would fail every subscriber of the statement, and PostgreSQL may read it only once rows match.

import type { Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { bindParams } from '../graphql/index.js';
import { compileSql, type JsonField, type MultiplexedSql } from '../sql/index.js';

/**
 * Reads every value the request gives (not the session's) as its slot's type, in one statement
 * that reads no table; throws the database's refusal (data-exception) as the subscription's.
 */
export async function checkCohortValues(driver: Driver, statement: MultiplexedSql, values: readonly (string | null)[],
  session: Session): Promise<void> {
  const fields: JsonField[] = [];
  statement.slots.forEach((slot, i) => {
    const value = values[i];
    if (slot.source.kind === 'session' || value === null || value === undefined || slot.type === null) return;
    fields.push({ key: `v${i}`, value: { kind: 'scalar', output: 'json',
      expr: { kind: 'text', expr: { kind: 'param', value: { kind: 'literal', value }, type: slot.type } } } });
  });
  if (fields.length === 0) return;
  const rc = { dialect: driver.dialect, hints: { valueSensitive: false } };
  const compiled = compileSql(driver.dialect.render.valueStatement({ kind: 'object', fields }, rc), driver.dialect);
  await driver.query(compiled.text, bindParams(compiled.params, {}, session));
}
