#!/usr/bin/env node
// A local stand-in for BigQuery's REST API, for tests and the demo: the calls that
// @google-cloud/bigquery makes when BIGQUERY_EMULATOR_HOST points here (jobs.query, jobs.insert,
// jobs.get, jobs.getQueryResults with pageToken, datasets and tables list/get), with every query
// parsed, analysed and executed by ZetaSQL (scripts/bigquery/zetasql.mjs) over the Chinook data
// in dataset `chinook`. No network: the ZetaSQL server runs on 127.0.0.1 beside it.
//
//   node scripts/bigquery-emulator.mjs --port 9050 [--project kiln-local] [--page-rows 1000] [--poll-once]
//
// `--poll-once` answers every jobs.query with `jobComplete: false` first, so clients poll.
// What is not BigQuery here: storage (rows live in memory, read-only), billing, auth (any
// credentials are accepted), DML/DDL, and GEOGRAPHY.

import { helpOnRequest } from './usage.mjs';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chinookDataset } from './bigquery/chinook-data.mjs';
import { fieldOfType, fromZeta, StandInError, toZeta, typeOfField, typeOfParam } from './bigquery/values.mjs';
import { startZetaSql } from './bigquery/zetasql.mjs';

helpOnRequest(import.meta.url);

const MAX_BODY = 8 * 1024 * 1024;
const MAX_JOBS = 200;

/**
 * Starts the stand-in on 127.0.0.1:`port` (0: any free port) and returns its URL (the value for
 * BIGQUERY_EMULATOR_HOST) and a close function.
 */
export async function startBigQueryStandIn(opts = {}) {
  const project = opts.project ?? 'kiln-local';
  const pageRows = opts.pageRows ?? 1000;
  const zeta = await startZetaSql();
  // datasets: name -> tables: name -> { fields (REST schema), columns (ZetaSQL), rows (ValueProto) }
  const datasets = new Map();
  const add = (dataset, name, t) => {
    if (!datasets.has(dataset)) datasets.set(dataset, new Map());
    const columns = t.fields.map((f) => ({ name: f.name, type: typeOfField(f) }));
    const rows = t.rows.map((r) => r.map((v, i) => toZeta(v, columns[i].type)));
    datasets.get(dataset).set(name, { fields: t.fields, columns, rows });
  };
  for (const [name, t] of Object.entries(chinookDataset().tables)) add('chinook', name, t);
  for (const [ds, tables] of Object.entries(opts.datasets ?? {})) for (const [name, t] of Object.entries(tables)) add(ds, name, t);

  const jobs = new Map();
  let pendingOnce = opts.pollOnce ? new Set() : null;

  async function runQuery(q) {
    if (typeof q?.query !== 'string') throw new StandInError('Required parameter is missing: query');
    if (q.useLegacySql === true) throw new StandInError('Legacy SQL is not supported by the stand-in');
    const params = (q.queryParameters ?? []).map((p, i) => {
      if (!p.name) throw new StandInError(`Query parameter ${i} has no name; positional parameters are not supported`);
      const type = typeOfParam(p.parameterType ?? { type: 'STRING' });
      return { name: p.name, type, value: toZeta(plainParam(p.parameterValue, p.parameterType), type) };
    });
    const tables = {};
    for (const name of await zeta.tableNames(q.query)) {
      const dot = name.indexOf('.');
      const ds = datasets.get(dot > 0 ? name.slice(0, dot) : q.defaultDataset?.datasetId);
      const t = ds?.get(dot > 0 ? name.slice(dot + 1) : name);
      if (!t) throw new NotFound(`Not found: Table ${project}:${name} was not found in location US`);
      tables[name] = { columns: t.columns, rows: t.rows };
    }
    const r = await zeta.evaluate(q.query, tables, params);
    const schema = { fields: r.columns.map((c) => fieldOfType(c.name, c.type)) };
    return { schema, columns: r.columns, rows: r.rows };
  }

  function keep(job) {
    jobs.set(job.id, job);
    if (jobs.size > MAX_JOBS) jobs.delete(jobs.keys().next().value);
  }

  function page(job, query) {
    const start = query.get('pageToken') ? Number(query.get('pageToken')) : Number(query.get('startIndex') ?? 0);
    const size = Math.max(1, Math.min(Number(query.get('maxResults') ?? pageRows) || pageRows, pageRows));
    const int64Timestamp = query.get('formatOptions.useInt64Timestamp') === 'true' || job.int64Timestamp;
    const rows = job.result.rows.slice(start, start + size).map((cells) => ({
      f: cells.map((v, i) => ({ v: fromZeta(v, job.result.columns[i].type, int64Timestamp) })),
    }));
    const next = start + size < job.result.rows.length ? String(start + size) : undefined;
    return { schema: job.result.schema, rows, totalRows: String(job.result.rows.length), ...(next ? { pageToken: next } : {}) };
  }

  const jobRef = (job) => ({ projectId: project, jobId: job.id, location: 'US' });
  const jobResource = (job) => ({
    kind: 'bigquery#job', id: `${project}:US.${job.id}`, jobReference: jobRef(job),
    configuration: { jobType: 'QUERY', query: { query: job.query, useLegacySql: false } },
    status: { state: 'DONE' },
    statistics: { creationTime: String(job.created), startTime: String(job.created), endTime: String(Date.now()), query: { totalBytesProcessed: '0', statementType: 'SELECT' } },
  });

  async function route(method, path, query, body) {
    const parts = path.replace(/^\/bigquery\/v2/, '').split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'projects' || parts.length < 3) throw new NotFound(`Not found: ${path}`);
    const rest = parts.slice(2);
    if (method === 'POST' && rest.length === 1 && rest[0] === 'queries') {
      const job = { id: body.requestId ? `job_${body.requestId.replace(/[^A-Za-z0-9_-]/g, '')}` : `job_${randomUUID()}`, query: body.query, created: Date.now(),
        int64Timestamp: body.formatOptions?.useInt64Timestamp === true };
      job.result = await runQuery(body);
      keep(job);
      if (pendingOnce) {
        pendingOnce.add(job.id);
        return { kind: 'bigquery#queryResponse', jobReference: jobRef(job), jobComplete: false };
      }
      const q = new URLSearchParams(body.maxResults ? { maxResults: String(body.maxResults) } : {});
      return { kind: 'bigquery#queryResponse', jobReference: jobRef(job), jobComplete: true, ...page(job, q) };
    }
    if (method === 'POST' && rest.length === 1 && rest[0] === 'jobs') {
      const q = body.configuration?.query;
      if (!q) throw new StandInError('Only query jobs are supported by the stand-in');
      const job = { id: body.jobReference?.jobId ?? `job_${randomUUID()}`, query: q.query, created: Date.now(), int64Timestamp: false };
      job.result = await runQuery({ ...q, query: q.query });
      keep(job);
      return jobResource(job);
    }
    if (method === 'GET' && rest.length === 2 && (rest[0] === 'jobs' || rest[0] === 'queries')) {
      const job = jobs.get(rest[1]);
      if (!job) throw new NotFound(`Not found: Job ${project}:US.${rest[1]}`);
      if (rest[0] === 'jobs') return jobResource(job);
      if (pendingOnce?.has(job.id)) {
        pendingOnce.delete(job.id);
        return { kind: 'bigquery#getQueryResultsResponse', jobReference: jobRef(job), jobComplete: false };
      }
      return { kind: 'bigquery#getQueryResultsResponse', jobReference: jobRef(job), jobComplete: true, ...page(job, query) };
    }
    if (method === 'GET' && rest[0] === 'datasets') {
      if (rest.length === 1) {
        return { kind: 'bigquery#datasetList', datasets: [...datasets.keys()].sort().map((d) => ({
          kind: 'bigquery#dataset', id: `${project}:${d}`, datasetReference: { projectId: project, datasetId: d }, location: 'US' })) };
      }
      const ds = datasets.get(rest[1]);
      if (!ds) throw new NotFound(`Not found: Dataset ${project}:${rest[1]}`);
      if (rest.length === 2) return { kind: 'bigquery#dataset', id: `${project}:${rest[1]}`, datasetReference: { projectId: project, datasetId: rest[1] }, location: 'US' };
      if (rest.length === 3 && rest[2] === 'tables') {
        const names = [...ds.keys()].sort();
        const start = Number(query.get('pageToken') ?? 0);
        const size = Math.max(1, Number(query.get('maxResults') ?? 50) || 50);
        const slice = names.slice(start, start + size);
        return { kind: 'bigquery#tableList', totalItems: names.length, tables: slice.map((t) => ({
          kind: 'bigquery#table', id: `${project}:${rest[1]}.${t}`, type: 'TABLE', tableReference: { projectId: project, datasetId: rest[1], tableId: t } })),
          ...(start + size < names.length ? { nextPageToken: String(start + size) } : {}) };
      }
      if (rest.length === 4 && rest[2] === 'tables') {
        const t = ds.get(rest[3]);
        if (!t) throw new NotFound(`Not found: Table ${project}:${rest[1]}.${rest[3]}`);
        return { kind: 'bigquery#table', id: `${project}:${rest[1]}.${rest[3]}`, type: 'TABLE', location: 'US',
          tableReference: { projectId: project, datasetId: rest[1], tableId: rest[3] }, schema: { fields: t.fields }, numRows: String(t.rows.length) };
      }
    }
    throw new NotFound(`Not found: ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) { req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      let status = 200;
      let out;
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = text ? JSON.parse(text) : {};
        out = await route(req.method ?? 'GET', url.pathname, url.searchParams, body);
      } catch (e) {
        const notFound = e instanceof NotFound;
        const known = notFound || e instanceof StandInError || e instanceof SyntaxError;
        status = notFound ? 404 : known ? 400 : 500;
        const reason = notFound ? 'notFound' : known ? 'invalidQuery' : 'internalError';
        const message = known ? e.message : `stand-in failure: ${e?.message ?? e}`;
        out = { error: { code: status, message, status: notFound ? 'NOT_FOUND' : known ? 'INVALID_ARGUMENT' : 'INTERNAL', errors: [{ reason, message, domain: 'global' }] } };
      }
      const payload = JSON.stringify(out);
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(payload) });
      res.end(payload);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    project,
    /** Turns on (or off) answering each jobs.query as not done yet, so that clients poll. */
    setPollOnce(on) { pendingOnce = on ? new Set() : null; },
    async close() {
      await new Promise((r) => server.close(() => r()));
      server.closeAllConnections?.();
      zeta.close();
    },
  };
}

class NotFound extends Error {}

// A REST parameter value (`{value}`, `{arrayValues}`, `{structValues}`) as plain values.
function plainParam(v, t) {
  if (!v) return null;
  if (t?.type === 'ARRAY') return (v.arrayValues ?? []).map((x) => plainParam(x, t.arrayType));
  if (t?.type === 'STRUCT') return Object.fromEntries((t.structTypes ?? []).map((s) => [s.name, plainParam(v.structValues?.[s.name], s.type)]));
  return v.value ?? null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const flag = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const standIn = await startBigQueryStandIn({
    port: Number(flag('--port') ?? 9050), project: flag('--project'),
    pageRows: flag('--page-rows') ? Number(flag('--page-rows')) : undefined, pollOnce: args.includes('--poll-once'),
  });
  console.log(`BigQuery stand-in (ZetaSQL) listening on ${standIn.url}; project ${standIn.project}; dataset chinook`);
  const stop = async () => { await standIn.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
