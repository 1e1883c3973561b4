// Types of scripts/bigquery-emulator.mjs for the tests that start the BigQuery stand-in.

export interface BigQueryStandIn {
  /** The value for BIGQUERY_EMULATOR_HOST (`http://127.0.0.1:<port>`). */
  readonly url: string;
  readonly project: string;
  setPollOnce(on: boolean): void;
  close(): Promise<void>;
}

export interface StandInTable {
  readonly fields: readonly { readonly name: string; readonly type: string; readonly mode?: string }[];
  readonly rows: readonly (readonly (string | null)[])[];
}

export function startBigQueryStandIn(opts?: {
  port?: number;
  project?: string;
  pageRows?: number;
  pollOnce?: boolean;
  datasets?: { readonly [dataset: string]: { readonly [table: string]: StandInTable } };
}): Promise<BigQueryStandIn>;
