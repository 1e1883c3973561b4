// Opens a BigQuery source's driver from its connection in the model: `project_id` and
// `service_account` read from the environment where the metadata says `{from_env}`. With
// BIGQUERY_EMULATOR_HOST set (a local stand-in), no service account is needed.

import type { BigQueryConnection, ValueRef } from '../bundle/index.js';
import { createBigQueryDriver, type Driver } from '../drivers/index.js';
import { StartError } from './start-error.js';

/** The driver of a BigQuery source; a StartError (exit 2) when a named variable is unset or not a key. */
export function openBigQuerySource(source: string, c: BigQueryConnection, log: (line: string) => void): Driver {
  const projectId = valueOf(source, 'project_id', c.projectId);
  if (projectId === null) throw new StartError(`BigQuery source "${source}": environment variable ${(c.projectId as { name: string }).name} (its project_id) is not set`, 2);
  const emulator = process.env['BIGQUERY_EMULATOR_HOST'];
  let serviceAccount: { [k: string]: unknown } | undefined;
  const text = c.serviceAccount === null ? null : valueOf(source, 'service_account', c.serviceAccount);
  if (text !== null) {
    try {
      serviceAccount = JSON.parse(text) as { [k: string]: unknown };
    } catch {
      throw new StartError(`BigQuery source "${source}": service_account is not a JSON service account key`, 2);
    }
  } else if (!emulator) {
    throw new StartError(`BigQuery source "${source}": no service_account (set ${c.serviceAccount?.kind === 'env' ? c.serviceAccount.name : 'configuration.service_account'}, or BIGQUERY_EMULATOR_HOST for a local stand-in)`, 2);
  }
  log(`source ${source}: BigQuery project ${projectId}${emulator ? ` at ${emulator} (BIGQUERY_EMULATOR_HOST)` : ''}`);
  return createBigQueryDriver({ projectId, ...(serviceAccount ? { serviceAccount } : {}) });
}

function valueOf(_source: string, _key: string, v: ValueRef): string | null {
  if (v.kind === 'literal') return v.value;
  return process.env[v.name] || null;
}
