// `kiln serve --metadata` for a BigQuery source: its driver opened from `configuration` and its
// catalog read through the BigQuery API (BIGQUERY_EMULATOR_HOST for a stand-in).

import type { SourceOpener } from '../../runtime/index.js';
import type { BigQueryDriver } from '../../runtime/drivers/index.js';
import { introspectBigQuery, type Introspection } from '../introspect/index.js';
import type { Source } from '../metadata/index.js';
import { readBigQueryConnection } from '../model/index.js';
import { CliError } from './project.js';

/** The catalog of a BigQuery source, read through the driver `open` gives it. */
export async function introspectBigQuerySource(s: Source, open: SourceOpener): Promise<Introspection> {
  const c = readBigQueryConnection(s);
  if ('reason' in c) throw new CliError(c.reason, 2);
  const datasets = Array.isArray(c.datasets) ? c.datasets : (process.env[(c.datasets as { name: string }).name] ?? '').split(',').map((d) => d.trim()).filter(Boolean);
  const driver = await open(s.name, null, c) as BigQueryDriver;
  try {
    return await introspectBigQuery(driver, datasets);
  } catch (e) {
    throw new CliError(`cannot read the catalog of BigQuery source "${s.name}": ${(e as Error).message}`, 1);
  }
}
