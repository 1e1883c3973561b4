// Statements of dialects that return typed rows (BigQuery): the one row is read through the
// driver and the dialect writes the response JSON from it and the root fields' IR.

import type { Driver } from '../drivers/index.js';
import type { JsonField } from '../sql/index.js';

/** The JSON object of `fields`, from the single row that `text` returns. */
export async function typedRowsText(driver: Driver, text: string, values: readonly unknown[], fields: readonly JsonField[]): Promise<string> {
  const write = driver.dialect.rowsToJson;
  if (!write) throw new Error(`assertion failed: the ${driver.dialect.name} dialect returns no typed rows`);
  const r = await driver.query(text, values);
  const first = r.rows[0] ?? [];
  return write(fields, Object.fromEntries(r.fields.map((f, i) => [f, first[i] ?? null])));
}
