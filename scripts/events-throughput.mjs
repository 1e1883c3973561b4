// Throughput of event trigger delivery (issue 6): events per second from the commit of one big
// INSERT to the last event at a local webhook that answers 200 at once, with 1 and with 3
// `kiln serve` on the same database. A measurement, not a test: it prints a table.
//
//   npm run build && node scripts/events-throughput.mjs [--events 10000] [--instances 1,3]
import { cpus, loadavg } from 'node:os';
import {
  checkCapture, compare, cpuMs, createDatabase, createItemsTrigger, freePort, insertSql, sleep, startKiln, startWebhook,
  waitDelivered, waitTriggerKnown, runScript,
} from './events-harness.mjs';

const HELP = `usage: node scripts/events-throughput.mjs [options]

For each instance count: a fresh database, that many \`kiln serve --database-url\`, an event
trigger on table items sending to a local webhook; a warm-up event; then one INSERT of --events
rows. Measures commit -> first event at the webhook, commit -> last distinct event at the
webhook, commit -> every event marked delivered in svc_catalog.event_log.

  --events N        rows in the INSERT (default 10000)
  --instances L     comma-separated instance counts (default 1,3)
  --latency A,B     webhook answers after A..B ms, random (default 0,0)
  --deadline S      seconds to wait for delivery (default 300)
  --env K=V         extra setting for every instance (repeatable), e.g. SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE=500
  --build           run scripts/build.mjs first (otherwise only when build/kiln.mjs is missing)
  --echo            print the instances' logs
  --help            this text`;

/** One measurement with `instances` processes. */
export async function runThroughput(o) {
  const db = await createDatabase('events_tput');
  const procs = [];
  const pids = [];
  const webhook = await startWebhook({ latencyMs: o.latencyMs, pids: () => pids });
  try {
    const ports = await Promise.all(Array.from({ length: o.instances }, () => freePort()));
    const start = (port, i) => startKiln({ databaseUrl: db.url, port, label: `kiln-${i + 1}`, env: o.env, echo: o.echo, onSpawn: (pid) => pids.push(pid) });
    procs.push(await start(ports[0], 0));
    procs.push(...await Promise.all(ports.slice(1).map((port, i) => start(port, i + 1))));
    await createItemsTrigger(procs[0], webhook.url);
    await waitTriggerKnown(procs);
    await checkCapture(db);
    // Warm-up: every worker has fetched at least once, connections are open; then a clean slate.
    await insertSql(db, o.instances * 2);
    const warm = await waitDelivered(db, o.instances * 2, 30_000);
    if (warm.timedOut) throw new Error(`warm-up events not delivered in 30 s: ${JSON.stringify(warm)}`);
    await sleep(1500);
    await db.query('DELETE FROM svc_catalog.event_invocation_logs');
    await db.query('DELETE FROM svc_catalog.event_log');
    webhook.reset();

    const allReceived = webhook.whenDistinct(o.events).then(() => performance.now());
    const cpu0 = procs.map((k) => cpuMs(k.pid));
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    await insertSql(db, o.events);
    const committed = performance.now();
    const counts = await waitDelivered(db, o.events, o.deadlineMs, undefined, 50);
    const marked = performance.now();
    const own = process.cpuUsage(own0);
    const busy = (ms) => (ms === null ? null : ms / (marked - t0));
    const received = counts.timedOut && webhook.distinct() < o.events ? null : await allReceived;
    const first = webhook.deliveries.reduce((m, d) => Math.min(m, d.at), Infinity);
    const cmp = await compare(db, webhook);
    return {
      instances: o.instances, events: o.events, insertMs: committed - t0, counts,
      firstMs: first - committed, receivedMs: received === null ? null : received - committed, markedMs: marked - committed,
      duplicates: cmp.duplicates, missing: cmp.missing.length,
      perProcess: procs.map((k) => cmp.perProcess.get(k.pid) ?? 0),
      // Share of one CPU each Kiln used from the INSERT to the last mark, and this process (webhook).
      kilnCpu: procs.map((k, i) => busy(cpu0[i] === null ? null : cpuMs(k.pid) - cpu0[i])),
      webhookCpu: busy((own.user + own.system) / 1000),
    };
  } finally {
    await Promise.all(procs.map((k) => k.stop().catch(() => undefined)));
    await webhook.close();
    await db.drop().catch((e) => process.stderr.write(`could not drop database ${db.name}: ${e.message}\n`));
  }
}

const rate = (n, ms) => (ms === null || ms <= 0 ? '-' : String(Math.round((n * 1000) / ms)));

/** The table of results. */
export function table(rows) {
  const head = ['instances', 'events', 'first ms', 'all received ms', 'all marked ms', 'events/s (received)', 'events/s (marked)', 'missing', 'dup', 'per instance', 'kiln CPU', 'webhook CPU'];
  const pct = (x) => (x === null ? '-' : `${Math.round(x * 100)}%`);
  const body = rows.map((r) => [r.instances, r.events, Math.round(r.firstMs), r.receivedMs === null ? 'timeout' : Math.round(r.receivedMs),
    r.counts.timedOut ? 'timeout' : Math.round(r.markedMs), rate(r.events, r.receivedMs), rate(r.events, r.counts.timedOut ? null : r.markedMs),
    r.missing, r.duplicates, r.perProcess.join('/'), r.kilnCpu.map(pct).join('/'), pct(r.webhookCpu)].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

function parseArgs(argv) {
  const o = { events: 10_000, instances: [1, 3], latencyMs: [0, 0], deadlineMs: 300_000, env: {}, build: false, echo: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => { const x = argv[++i]; if (x === undefined) throw new Error(`${a} needs a value`); return x; };
    if (a === '--help' || a === '-h') return null;
    else if (a === '--events') o.events = Math.max(1, Math.floor(Number(v())));
    else if (a === '--instances') o.instances = v().split(',').map((x) => Math.max(1, Math.floor(Number(x))));
    else if (a === '--latency') o.latencyMs = v().split(',').map(Number);
    else if (a === '--deadline') o.deadlineMs = Number(v()) * 1000;
    else if (a === '--env') { const [k, ...rest] = v().split('='); o.env[k] = rest.join('='); }
    else if (a === '--build') o.build = true;
    else if (a === '--echo') o.echo = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isFinite(o.events) || o.instances.some((n) => !Number.isFinite(n))) throw new Error('--events and --instances take numbers');
  return o;
}

runScript(import.meta.url, HELP, parseArgs, async (o) => {
  const rows = [];
  for (const n of o.instances) {
    process.stdout.write(`${n} instance(s), ${o.events} events ...\n`);
    rows.push(await runThroughput({ ...o, instances: n }));
  }
  const env = Object.entries(o.env).map(([k, v]) => `${k}=${v}`).join(' ');
  process.stdout.write(`\n${table(rows)}\n\nsettings: ${env || 'defaults'}; webhook latency ${o.latencyMs.join('..')} ms; ms are from the INSERT's commit; `
    + `CPU is the share of one core from the INSERT to the last event marked (${cpus().length} cores here; `
    + `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}: other work on the machine skews these figures)\n`);
  return rows.some((r) => r.missing > 0 || r.counts.timedOut) ? 1 : 0;
});
