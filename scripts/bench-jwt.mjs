// Bench Q6 (role `customer`, own invoices) with a distinct JWT per request against Q6 with plain
// session headers, on the shared harness's data and query (issue 5's bar). Two Kiln servers are
// started from the same bundle: one trusting X-Svc-* headers, one in JWT mode; the runs alternate
// (headers, jwt, headers, jwt, ...) so both see the same machine.
//
//   node scripts/bench-jwt.mjs --bundle DIR [--bench ../shared/bench] [--tokens 5000]
//        [--concurrency 16] [--duration 10] [--reps 3] [--database-url URL]
//
// Needs the harness's node_modules (autocannon): `npm ci` in the bench folder.
import { helpOnRequest } from './usage.mjs';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const benchDir = resolve(opt('bench', join(root, '..', 'shared', 'bench')));
const bundle = opt('bundle');
if (!bundle) { console.error('usage: bench-jwt.mjs --bundle DIR [...]'); process.exit(2); }
const db = opt('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench');
const tokens = Number(opt('tokens', '5000'));
const conns = Number(opt('concurrency', '16'));
const secs = Number(opt('duration', '10'));
const reps = Number(opt('reps', '3'));
const customers = Number(opt('customers', '59'));

const autocannon = createRequire(join(benchDir, 'package.json'))('autocannon');
const query = readFileSync(join(benchDir, 'queries', 'q6_role_invoices.graphql'), 'utf8');
const body = JSON.stringify({ query, operationName: /^\s*query\s+(\w+)/m.exec(query)?.[1] });
const KEY = 'bench-jwt-secret-of-at-least-thirty-two-characters';
const ADMIN = 'bench-admin-secret';

// Distinct tokens: every one has its own jti (so its own signature and cache entry).
const secret = new TextEncoder().encode(KEY);
const pool = [];
for (let i = 0; i < tokens; i++) {
  const customer = 1 + (i % customers);
  pool.push(await new SignJWT({ 'https://svc.io/jwt/claims': {
    'x-svc-allowed-roles': ['customer'], 'x-svc-default-role': 'customer', 'x-svc-customer-id': String(customer) } })
    .setProtectedHeader({ alg: 'HS256' }).setSubject(`c${customer}`).setJti(`t${i}`).setIssuedAt().setExpirationTime('2h').sign(secret));
}

function start(port, extra, env = {}) {
  const p = spawn(process.execPath, [join(root, 'build', 'kiln.mjs'), 'serve', '--bundle', bundle, '--database-url', db,
    '--port', String(port), '--host', '127.0.0.1', '--pg-connections', '10', '--no-console', ...extra],
  { env: { ...process.env, NODE_ENV: 'production', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((ok, fail) => {
    p.stderr.on('data', (b) => { if (/serving GraphQL/.test(String(b))) ok(p); });
    p.on('exit', (c) => fail(new Error(`server exited ${c}`)));
  });
}

function run(url, mkHeaders) {
  return new Promise((ok, fail) => {
    let n = 0;
    autocannon({ url, method: 'POST', connections: conns, duration: secs, pipelining: 1,
      requests: [{ setupRequest: (req) => ({ ...req, method: 'POST', body, headers: { 'content-type': 'application/json', ...mkHeaders(n++) } }) }] },
    (err, res) => (err ? fail(err) : ok({ rps: res.requests.average, non2xx: res.non2xx, errors: res.errors })));
  });
}

const plain = await start(8181, []);
const jwt = await start(8182, ['--admin-secret', ADMIN, '--jwt-secret', JSON.stringify({ type: 'HS256', key: KEY })]);
const headerMode = (i) => ({ 'x-svc-role': 'customer', 'x-svc-customer-id': String(1 + (i * 7919) % customers) });
const jwtMode = (i) => ({ authorization: `Bearer ${pool[(i * 7919) % pool.length]}` });
// A check request each: same answer shape, no errors.
for (const [port, h] of [[8181, headerMode(3)], [8182, jwtMode(3)]]) {
  const r = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...h } });
  const t = await r.text();
  if (r.status !== 200 || t.includes('"errors"')) throw new Error(`check failed on ${port}: ${t.slice(0, 300)}`);
}
await run('http://127.0.0.1:8181/v1/graphql', headerMode); // warm-up
await run('http://127.0.0.1:8182/v1/graphql', jwtMode);
const rows = [];
for (let i = 0; i < reps; i++) {
  const h = await run('http://127.0.0.1:8181/v1/graphql', headerMode);
  const j = await run('http://127.0.0.1:8182/v1/graphql', jwtMode);
  rows.push({ headers: h.rps, jwt: j.rps, ratio: j.rps / h.rps, non2xx: h.non2xx + j.non2xx, errors: h.errors + j.errors });
  console.log(`rep ${i + 1}: headers ${h.rps.toFixed(0)} req/s, jwt ${j.rps.toFixed(0)} req/s, ratio ${(j.rps / h.rps).toFixed(2)} (non-2xx ${h.non2xx + j.non2xx}, errors ${h.errors + j.errors})`);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Q6 at ${conns} connections, ${tokens} distinct tokens: headers ${med(rows.map((r) => r.headers)).toFixed(0)} req/s, jwt ${med(rows.map((r) => r.jwt)).toFixed(0)} req/s, median ratio ${med(rows.map((r) => r.ratio)).toFixed(2)}`);
plain.kill();
jwt.kill();
