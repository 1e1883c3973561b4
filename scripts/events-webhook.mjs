// The webhook of the event delivery checks (issue 6): a node:http server on 127.0.0.1 that
// answers 200 and keeps every delivery, with the Kiln process that sent it.
import { helpOnRequest } from './usage.mjs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { createServer } from 'node:http';

helpOnRequest(import.meta.url);

// Which process owns the client end of a loopback TCP connection: the socket inode from
// /proc/net/tcp*, then the process whose fd table holds it (Linux only; 'unknown' elsewhere).
// Asynchronous: /proc/net/tcp takes tens of ms to produce, which must not hold up the webhook.
async function clientInodes(serverPort) {
  const found = new Map();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try { text = await readFile(file, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const port = parseInt(f[1].split(':').pop(), 16);
      const remote = parseInt(f[2].split(':').pop(), 16);
      // Inode 0: a closed connection (TIME_WAIT) that once used the same port.
      if (remote === serverPort && f[9] !== '0') found.set(port, f[9]);
    }
  }
  return found;
}

async function ownerOfInodes(inodes, pids) {
  const owner = new Map();
  const wanted = new Set(inodes.values());
  for (const pid of pids) {
    let fds;
    try { fds = await readdir(`/proc/${pid}/fd`); } catch { continue; }
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    for (const link of links) {
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && wanted.has(m[1])) owner.set(m[1], pid);
    }
  }
  return owner;
}

/**
 * A webhook on 127.0.0.1 answering 200 (after `latencyMs` = [min, max] when given). It keeps
 * every delivery: event id, the Kiln process that sent it (one of `pids()`), whether
 * the sender hung up before the answer.
 */
export async function startWebhook(o = {}) {
  const [min, max] = o.latencyMs ?? [0, 0];
  const pids = o.pids ?? (() => []);
  const deliveries = [];
  const counts = new Map();
  const sockets = new Map(); // client port -> { pid (undefined: not known yet; null: never), since }
  const watchers = new Set();
  let seq = 0;
  let port = 0;
  // Client port -> pid, from the last look at /proc. It also covers connections not accepted yet
  // (a process killed in a burst leaves requests in the backlog); an entry is used once, and only
  // while fresh, since ports are reused.
  const seen = new Map();
  // One look at a time; asks made meanwhile are served by one more look after it.
  let looking = null;
  let again = false;
  const look = async () => {
    const inodes = await clientInodes(port);
    const owners = await ownerOfInodes(inodes, pids());
    const now = performance.now();
    for (const [p, inode] of inodes) if (owners.has(inode)) seen.set(p, { pid: owners.get(inode), at: now });
    for (const [p, s] of sockets) if (s.pid === undefined) claim(p, s);
  };
  const resolveOwners = async (all = false) => {
    if (port === 0 || o.attribute === false) return;
    if (!all && ![...sockets.values()].some((x) => x.pid === undefined)) return;
    if (looking) { again = true; return looking; }
    looking = look().finally(() => { looking = null; });
    await looking;
    if (again) { again = false; await resolveOwners(all); }
  };
  const claim = (p, s) => {
    const hit = seen.get(p);
    if (hit && performance.now() - hit.at < 2000) { s.pid = hit.pid; seen.delete(p); }
    else if (performance.now() - s.since > 5000) s.pid = null; // gone before it was seen: left unknown
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let id = null;
      try { id = JSON.parse(Buffer.concat(chunks).toString('utf8')).id ?? null; } catch { /* counted as id null */ }
      const d = { id, seq: seq++, at: performance.now(), socket: sockets.get(req.socket.remotePort) ?? {}, answered: false, hungUp: false };
      deliveries.push(d);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const w of watchers) w(d);
      res.on('close', () => { if (!res.writableFinished) d.hungUp = true; });
      const answer = () => {
        if (res.destroyed) { d.hungUp = true; return; }
        d.answered = true;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      const wait = min + Math.random() * (max - min);
      if (wait > 0) setTimeout(answer, wait); else answer();
    });
  });
  // Entries stay after the socket closes: deliveries point at them.
  // Look at once: a connection may close, and its process die, soon after.
  server.on('connection', (s) => {
    const entry = { pid: undefined, since: performance.now() };
    sockets.set(s.remotePort, entry);
    if (seen.has(s.remotePort)) claim(s.remotePort, entry);
    void resolveOwners();
  });
  server.keepAliveTimeout = 60_000;
  const ownerTimer = setInterval(() => { void resolveOwners(); }, 200);
  port = await new Promise((r) => server.listen(0, '127.0.0.1', () => r(server.address().port)));
  const whenDelivery = (test) => new Promise((r) => {
    const w = (d) => { if (test(d)) { watchers.delete(w); r(d); } };
    watchers.add(w);
  });
  return {
    url: `http://127.0.0.1:${port}/events`,
    deliveries, counts,
    /** Distinct event ids received. */
    distinct: () => counts.size,
    /** Attributes new connections to their process; `all`: also those not accepted yet (await it before a kill). */
    resolveOwners,
    /** Resolves once `n` distinct ids arrived (or at once). */
    whenDistinct(n) {
      return counts.size >= n ? Promise.resolve() : whenDelivery(() => counts.size >= n);
    },
    /** Resolves at the first delivery from now on for which `test(delivery)` holds. */
    whenDelivery,
    reset() { deliveries.length = 0; counts.clear(); },
    async close() {
      clearInterval(ownerTimer);
      port = 0;
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r()));
    },
  };
}
