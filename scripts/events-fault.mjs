// Fault check of event trigger delivery (issue 6): several `kiln serve` on one database share the
// event log; one is SIGKILLed while it delivers and started again on the same port. Every event
// must reach the webhook; duplicates are allowed (at-least-once) only for events the killed
// process had claimed and not finished.
//
//   npm run build && node scripts/events-fault.mjs [--instances 3] [--changes 10000] ...
//
// Exit status: 0 all delivered and every duplicate explained; 1 an event is missing (or the event
// log lacks a change); 2 bad arguments; 3 a duplicate the kill does not explain.
import {
  checkCapture, compare, createDatabase, createItemsTrigger, freePort, insertGraphql, insertSql,
  lockedIds, sleep, startKiln, startWebhook, stuckRows, STUCK_QUERY, TRIGGER, updateSql, waitDelivered, waitTriggerKnown, runScript,
} from './events-harness.mjs';

const HELP = `usage: node scripts/events-fault.mjs [options]

Starts N \`kiln serve --database-url\` on a fresh database, an event trigger (insert, update) on
table items sending to a local webhook, writes row changes in batches (SQL and GraphQL
alternately, then UPDATEs), SIGKILLs the last instance once --kill-at of the changes have
reached the webhook and it has a call in flight, restarts it on the same port, and waits until the event log says every
event is delivered.

  --instances N      kiln serve processes (default 3)
  --changes N        row changes (default 10000; a fifth are UPDATEs of inserted rows)
  --batch N          rows per write (default 500)
  --kill-at F        kill when this fraction of changes reached the webhook (default 0.3)
  --restart-after S  seconds between the kill and the restart (default 2)
  --latency A,B      webhook answers after A..B ms, random (default 5,30)
  --retries N        retry_conf.num_retries (default 3; interval_sec 1)
  --deadline S       seconds to wait for delivery after the last write (default 180)
  --env K=V          extra setting for every instance (repeatable), e.g. SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE=20;
                     SVC_GRAPHQL_EVENTS_LOCK_TIMEOUT is 10 unless given: the killed instance's claims
                     come back after it (the default, 1800 s, outlasts any deadline; the webhook's
                     timeout_sec is 5, so a live delivery never outlasts the lock)
  --build            run scripts/build.mjs first (otherwise only when build/kiln.mjs is missing)
  --echo             print the instances' logs
  --keep             keep the database (its name is printed)
  --help             this text

Exit status: 0 ok; 1 an event missing or not captured; 2 bad arguments; 3 an unexplained duplicate.`;

/** Runs the fault scenario; returns the figures (see `report`). */
export async function runFault(o) {
  const log = o.log ?? ((line) => process.stdout.write(`${line}\n`));
  const db = await createDatabase('events_fault');
  const pids = [];
  const webhook = await startWebhook({ latencyMs: o.latencyMs, pids: () => pids });
  const instances = [];
  try {
    const start = (label, port) => startKiln({ databaseUrl: db.url, port, label, env: o.env, echo: o.echo, onSpawn: (pid) => pids.push(pid) });
    const ports = await Promise.all(Array.from({ length: o.instances }, () => freePort()));
    instances.push(await start('kiln-1', ports[0]));
    instances.push(...await Promise.all(ports.slice(1).map((p, i) => start(`kiln-${i + 2}`, p))));
    await createItemsTrigger(instances[0], webhook.url, { num_retries: o.retries, interval_sec: 1, timeout_sec: 5 });
    await waitTriggerKnown(instances);
    await checkCapture(db);
    log(`database ${db.name}; ${o.instances} instances (pids ${instances.map((k) => k.pid).join(', ')}); webhook ${webhook.url}`);
    log(`settings: ${Object.entries(o.env).map(([k, v]) => `${k}=${v}`).join(' ') || 'defaults'}; webhook latency ${o.latencyMs.join('..')} ms`);

    const victim = instances[instances.length - 1];
    const killAt = Math.max(1, Math.floor(o.changes * o.killAt));
    // The kill comes once killAt events arrived and the victim has a call the webhook has not
    // answered yet: it dies with work in hand.
    const victimBusy = async () => {
      await webhook.whenDistinct(killAt);
      const until = performance.now() + o.deadlineMs;
      while (performance.now() < until && webhook.distinct() < o.changes) {
        await webhook.resolveOwners();
        const open = webhook.deliveries.filter((d) => d.socket.pid === victim.pid && !d.answered).length;
        if (open > 0) return open;
        await sleep(5);
      }
      return 0;
    };
    const reached = Promise.race([victimBusy(), sleep(o.deadlineMs).then(() => 0)]);
    const kill = reached.then(async (inFlight) => {
      if (inFlight === 0) {
        log(`no kill: ${webhook.distinct()} events reached the webhook (${killAt} wanted) and ${victim.label} had no call in flight after that`);
        return { pid: null, label: victim.label, sentBefore: 0, inFlight: 0, lockedAtKill: new Set(), orphans: 0 };
      }
      await webhook.resolveOwners(true);
      const before = webhook.deliveries.filter((d) => d.socket.pid === victim.pid);
      await victim.kill('SIGKILL');
      const atKill = performance.now();
      const lockedAtKill = await lockedIds(db);
      log(`SIGKILL ${victim.label} (pid ${victim.pid}) at ${webhook.distinct()} received: it had sent ${before.length}, ${inFlight} awaiting the webhook's answer a moment before; ${lockedAtKill.size} events claimed and unfinished (all instances)`);
      await sleep(o.restartAfterMs);
      const orphans = [...await lockedIds(db)].filter((id) => lockedAtKill.has(id)).length;
      const again = await start(`${victim.label}-restarted`, victim.port);
      instances[instances.length - 1] = again;
      log(`restarted ${victim.label} on port ${victim.port} (pid ${again.pid}) after ${Math.round(performance.now() - atKill)} ms; ${orphans} claimed events still unfinished before the restart`);
      return { pid: victim.pid, label: victim.label, sentBefore: before.length, inFlight, lockedAtKill, orphans };
    });

    const t0 = performance.now();
    const inserts = o.changes - Math.floor(o.changes / 5);
    const ids = [];
    for (let done = 0, i = 0; done < inserts; i++) {
      const n = Math.min(o.batch, inserts - done);
      ids.push(...(i % 2 === 0 ? await insertSql(db, n) : await insertGraphql(instances[0], n)));
      done += n;
    }
    let updated = 0;
    for (let at = 0; at < o.changes - inserts; at += o.batch) updated += await updateSql(db, ids.slice(at, Math.min(at + o.batch, o.changes - inserts)));
    const written = ids.length + updated;
    log(`wrote ${ids.length} inserts + ${updated} updates in ${Math.round(performance.now() - t0)} ms`);

    const killed = await kill;
    let last = 0;
    const counts = await waitDelivered(db, written, o.deadlineMs, (c) => {
      if (performance.now() - last > 5000) { last = performance.now(); log(`  event_log: ${JSON.stringify(c)}; webhook distinct ${webhook.distinct()}`); }
    });
    await sleep(500); // late duplicates of in-flight requests, if any, arrive now
    const cmp = await compare(db, webhook, killed);
    const result = { database: db.name, changes: written, counts, killed, ...cmp, restartAfterMs: o.restartAfterMs, seconds: (performance.now() - t0) / 1000 };
    if (counts.timedOut || cmp.missing.length) result.stuck = await stuckRows(db);
    return result;
  } finally {
    await Promise.all(instances.map((k) => k.stop().catch(() => undefined)));
    await webhook.close();
    if (!o.keep) await db.drop().catch((e) => log(`could not drop database ${db.name}: ${e.message}`));
  }
}

/** Prints the figures of a fault run; returns the exit status. */
export function report(r, log = (line) => process.stdout.write(`${line}\n`)) {
  const label = (pid) => (pid === r.killed.pid ? `${pid} (killed)` : String(pid));
  log('');
  log(`row changes written       ${r.changes}`);
  log(`events in event_log       ${r.written}  (delivered ${r.counts.delivered}, error ${r.counts.error}, still locked ${r.counts.locked}, tried more than once ${r.counts.retried})`);
  log(`distinct ids at webhook   ${r.received}  (${r.deliveries} deliveries)`);
  log(`missing                   ${r.missing.length}`);
  log(`duplicates                ${r.duplicates} ids (${r.extraDeliveries} extra deliveries); explained by the kill ${r.explained}`);
  log(`killed instance           had sent ${r.killed.sentBefore} (${r.killed.inFlight} unanswered just before) when killed; claimed+unfinished events: ${r.killed.lockedAtKill.size} at the kill (all instances: every duplicate must be one), ${r.killed.orphans} of them still so ${r.restartAfterMs / 1000} s later (the killed one's share); ${r.hungUp} calls hung up`);
  log(`per process (pid: deliveries)  ${[...r.perProcess].map(([p, n]) => `${label(p)}: ${n}`).join(', ')}`);
  log(`elapsed                   ${r.seconds.toFixed(1)} s`);
  if (r.unknown.length) log(`ids the event log does not hold: ${r.unknown.slice(0, 5).join(', ')}`);
  if (r.stuck) {
    log(`NOT DELIVERED${r.counts.timedOut ? ' (deadline passed)' : ''}; ${STUCK_QUERY.replace('$1', `'${TRIGGER}'`)}`);
    for (const row of r.stuck) log(`  ${JSON.stringify(row)}`);
  }
  if (r.killed.pid === null) log('NO KILL: the scenario did not reach the point where an instance is killed');
  if (r.missing.length || r.written < r.changes || r.counts.timedOut || r.killed.pid === null) return 1;
  if (r.unexplained.length) { log(`UNEXPLAINED duplicates: ${r.unexplained.slice(0, 10).join(', ')}`); return 3; }
  return 0;
}

function parseArgs(argv) {
  const o = { instances: 3, changes: 10_000, batch: 500, killAt: 0.3, restartAfterMs: 2000, latencyMs: [5, 30], retries: 3,
    deadlineMs: 180_000, env: { SVC_GRAPHQL_EVENTS_LOCK_TIMEOUT: '10' }, build: false, echo: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => { const x = argv[++i]; if (x === undefined) throw new Error(`${a} needs a value`); return x; };
    const num = () => { const x = Number(v()); if (!Number.isFinite(x) || x < 0) throw new Error(`${a} needs a number`); return x; };
    if (a === '--help' || a === '-h') return null;
    else if (a === '--instances') o.instances = Math.max(1, Math.floor(num()));
    else if (a === '--changes') o.changes = Math.floor(num());
    else if (a === '--batch') o.batch = Math.max(1, Math.floor(num()));
    else if (a === '--kill-at') o.killAt = num();
    else if (a === '--restart-after') o.restartAfterMs = num() * 1000;
    else if (a === '--latency') o.latencyMs = v().split(',').map(Number);
    else if (a === '--retries') o.retries = Math.floor(num());
    else if (a === '--deadline') o.deadlineMs = num() * 1000;
    else if (a === '--env') { const [k, ...rest] = v().split('='); o.env[k] = rest.join('='); }
    else if (a === '--build') o.build = true;
    else if (a === '--echo') o.echo = true;
    else if (a === '--keep') o.keep = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.instances < 2) throw new Error('--instances must be at least 2 (one is killed, one keeps serving GraphQL writes)');
  return o;
}

runScript(import.meta.url, HELP, parseArgs, async (o) => {
  const r = await runFault(o);
  return report(r);
});
