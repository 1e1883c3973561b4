// A source that leaves the metadata (drop_source, clear_metadata, replace_metadata without it)
// takes Kiln's event catalog out of its database, as Hasura's postDropSourceHook takes its
// hdb_catalog out of a source it dropped: the capture triggers stop writing events no one will
// deliver. The metadata database keeps its catalog (it holds the metadata and the scheduled
// events); nothing is done there.

import type { Driver } from '../drivers/index.js';
import { inTransaction } from './sync.js';

type Runner = Pick<Driver, 'query'>;

/** Drops schema svc_catalog (its event log, and with its functions the capture triggers) from a source database that is not the metadata database. */
export async function retireSourceEvents(db: Runner | Driver): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query(`SELECT (to_regclass('svc_catalog.event_log') IS NOT NULL)::text,
      (to_regclass('svc_catalog.hdb_metadata') IS NOT NULL)::text`);
    const [events, metadata] = rows[0] ?? [];
    if (String(events) !== 'true' || String(metadata) === 'true') return false;
    await tx.query('DROP SCHEMA svc_catalog CASCADE');
    return true;
  });
}
