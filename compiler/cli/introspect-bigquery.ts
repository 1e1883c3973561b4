// `kiln introspect --bigquery-project P --datasets a,b [--service-account key.json] [--out FILE]`:
// a BigQuery source's snapshot through the BigQuery API (BIGQUERY_EMULATOR_HOST for a stand-in).

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { introspectBigQuery } from '../introspect/index.js';
import { createBigQueryDriver } from '../../runtime/drivers/index.js';
import { CliError } from './project.js';

export async function introspectBigQueryCommand(o: { bigqueryProject?: string; datasets?: string; serviceAccount?: string; out?: string }): Promise<void> {
  if (!o.bigqueryProject) throw new CliError('--datasets needs --bigquery-project (the project the datasets are in)', 2);
  const datasets = (o.datasets ?? '').split(',').map((d) => d.trim()).filter(Boolean);
  if (datasets.length === 0) throw new CliError('--bigquery-project needs --datasets (comma-separated dataset names)', 2);
  let serviceAccount: { [k: string]: unknown } | undefined;
  if (o.serviceAccount !== undefined) {
    try {
      serviceAccount = JSON.parse(await readFile(o.serviceAccount, 'utf8')) as { [k: string]: unknown };
    } catch (e) {
      throw new CliError(`--service-account: cannot read ${o.serviceAccount} as JSON: ${(e as Error).message}`, 2);
    }
  }
  const driver = createBigQueryDriver({ projectId: o.bigqueryProject, ...(serviceAccount ? { serviceAccount } : {}) });
  let text: string;
  let tables: number;
  try {
    const db = await introspectBigQuery(driver, datasets);
    text = JSON.stringify(db, null, 2) + '\n';
    tables = db.tables.length;
  } catch (e) {
    throw new CliError(`cannot introspect BigQuery project ${o.bigqueryProject}: ${(e as Error).message}`);
  } finally {
    await driver.close();
  }
  if (!o.out) { process.stdout.write(text); return; }
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, text);
  process.stderr.write(`wrote ${tables} table(s) of ${datasets.length} dataset(s) to ${o.out}\n`);
}
