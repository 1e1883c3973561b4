#!/usr/bin/env node
// What tracing costs a request (issue 22): one `kiln serve` on a fresh database, a small query
// sent for --duration seconds at --concurrency in flight, with tracing off, on (every request
// exported to an OTLP/HTTP receiver this script runs on 127.0.0.1, which counts and drops the
// spans), and off again; prints requests/s and latency of each round.
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { SECRET, cpuMs, createDatabase, freePort, runScript, sleep, startKiln } from './events-harness.mjs';

const HELP = `Usage: node scripts/trace-overhead.mjs [--duration S] [--concurrency N] [--build]

Rounds: tracing off, on (set_opentelemetry_config to a receiver on 127.0.0.1), off again
(set_opentelemetry_status disabled). Each round: 1 s warm-up, then --duration seconds (default 5)
at --concurrency requests in flight (default 16).`;

function parseArgs(argv) {
  const o = { duration: 5, concurrency: 16, build: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help') return null;
    else if (a === '--build') o.build = true;
    else if (a === '--duration' || a === '--concurrency') {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      o[a.slice(2)] = v;
    } else throw new Error(`unknown option ${a}`);
  }
  return o;
}

async function receiver() {
  let spans = 0;
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c) => { bytes += c.length; });
    req.on('end', () => {
      // A span is at least ~150 bytes of protobuf; count exports and bytes rather than decode.
      spans += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      void bytes;
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1/traces`, exports: () => spans, close: () => new Promise((r) => server.close(r)) };
}

async function load(pool, body, seconds, concurrency) {
  const latencies = [];
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const t = performance.now();
      const res = await pool.request({ path: '/v1/graphql', method: 'POST', body, headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET } });
      const text = await res.body.text();
      if (res.statusCode !== 200 || !text.startsWith('{"data"')) throw new Error(`unexpected answer ${res.statusCode}: ${text}`);
      latencies.push(performance.now() - t);
    }
  };
  const started = performance.now();
  const timer = setTimeout(() => { stop = true; }, seconds * 1000);
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearTimeout(timer);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
  return { rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99) };
}

async function run(o) {
  const db = await createDatabase('traceoh');
  await db.query('INSERT INTO items (v) SELECT g FROM generate_series(1, 100) g');
  const rx = await receiver();
  const kiln = await startKiln({ label: 'kiln', databaseUrl: db.url, port: await freePort(), env: { SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup' } });
  const pool = new Pool(kiln.base, { connections: o.concurrency });
  const meta = async (type, args) => {
    const res = await pool.request({ path: '/v1/metadata', method: 'POST', body: JSON.stringify({ type, args }), headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${type}: ${text}`);
  };
  try {
    await meta('replace_metadata', { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } }, tables: [{ table: { schema: 'public', name: 'items' } }] }] });
    const body = JSON.stringify({ query: 'query Items { items(limit: 10, order_by: {id: asc}) { id v } }' });
    const rounds = [
      ['off', null],
      ['on', () => meta('set_opentelemetry_config', { status: 'enabled', data_types: ['traces'], exporter_otlp: { otlp_traces_endpoint: rx.url } })],
      ['off again', () => meta('set_opentelemetry_status', 'disabled')],
    ];
    process.stdout.write(`concurrency ${o.concurrency}, ${o.duration} s per round\n`);
    for (const [name, apply] of rounds) {
      if (apply) await apply();
      await load(pool, body, 1, o.concurrency);
      const before = rx.exports();
      const cpu0 = cpuMs(kiln.pid);
      const r = await load(pool, body, o.duration, o.concurrency);
      // CPU time of the server per request: steadier than req/s on a machine shared with other work.
      const cpu = cpu0 === null ? null : ((cpuMs(kiln.pid) - cpu0) / (r.rps * o.duration)).toFixed(3);
      await sleep(5500); // the batch delay: this round's spans reach the receiver
      process.stdout.write(`tracing ${name.padEnd(9)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  server CPU ${cpu} ms/request  exports received ${rx.exports() - before}\n`);
    }
    return 0;
  } finally {
    await pool.close();
    await kiln.stop();
    await rx.close();
    await db.drop();
  }
}

runScript(import.meta.url, HELP, parseArgs, run);
