// drop_action's `clear_data` (default true; spec part B "Actions and custom types"): the calls of
// the dropped action are deleted from svc_catalog.hdb_action_log in the change's transaction, so
// a failed change keeps them. The table exists once asynchronous actions have been served.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';

/** Deletes the logged calls of the action drop_action names, unless `clear_data` is false. */
export async function clearDroppedActionLog(tx: Pick<Driver, 'query'>, args: Json): Promise<void> {
  if (args === null || typeof args !== 'object' || Array.isArray(args) || typeof args['name'] !== 'string' || args['clear_data'] === false) return;
  const exists = await tx.query(`SELECT to_regclass('svc_catalog.hdb_action_log') IS NOT NULL`);
  const present = exists.rows[0]?.[0];
  if (present !== true && present !== 't') return;
  await tx.query('DELETE FROM svc_catalog.hdb_action_log WHERE action_name = $1', [args['name']]);
}
