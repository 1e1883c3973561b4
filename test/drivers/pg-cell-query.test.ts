// The read path's statements (queryText) go out without Describe, so PostgreSQL sends no row
// description (pg.ts CellQuery). Seen on the wire: the driver talks to PostgreSQL through a TCP
// relay on 127.0.0.1 that counts the messages each side sends, and the answers are checked for
// every kind of value the statement may take or give back.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let db: TestDatabase;
let driver: Driver;
let relay: net.Server;
// Message type letters after the startup exchange, each side's.
const sent: string[] = [];
const received: string[] = [];

// Counts the typed messages of one direction of the protocol; the client's first message (startup,
// or SSL request then startup) has no type byte.
function counter(out: string[], untypedFirst: boolean): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let first = untypedFirst;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (first) {
        if (pending.length < 4) return;
        const len = pending.readInt32BE(0);
        if (pending.length < len) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(len);
        // An SSL request (80877103) is followed by another untyped message: the startup.
        if (code !== 80877103) first = false;
        continue;
      }
      if (pending.length < 5) return;
      const len = pending.readInt32BE(1);
      if (pending.length < len + 1) return;
      out.push(String.fromCharCode(pending[0]!));
      pending = pending.subarray(len + 1);
    }
  };
}

beforeAll(async () => {
  db = await createTestDatabase('pgcell', 'CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, \'caf\u00e9 \u65e5\u672c\'), (2, NULL);');
  const target = new URL(db.url);
  relay = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const fromClient = counter(sent, true);
    const fromServer = counter(received, false);
    client.on('data', (d: Buffer) => { fromClient(d); server.write(d); });
    server.on('data', (d: Buffer) => { fromServer(d); client.write(d); });
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  const url = new URL(db.url);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as net.AddressInfo).port);
  driver = createPgDriver({ url: url.toString(), max: 1 });
  await driver.queryText('SELECT 1::text', [], undefined); // the connection's setup, out of the counts
});

afterAll(async () => {
  await driver?.close();
  await new Promise((r) => relay?.close(r));
  await db?.drop();
});

const count = (list: string[], letter: string): number => list.filter((x) => x === letter).length;

describe('queryText on the wire', () => {
  it('sends Parse once, then Bind, Execute and Sync for each run, and no Describe; PostgreSQL sends no row description', async () => {
    sent.length = 0;
    received.length = 0;
    const text = 'SELECT coalesce(json_agg(json_build_object(\'id\', id, \'name\', name) ORDER BY id), \'[]\')::text FROM t WHERE id >= $1';
    for (let i = 0; i < 5; i++) expect(JSON.parse(await driver.queryText(text, [1], 'cells'))).toEqual([{ id: 1, name: 'caf\u00e9 \u65e5\u672c' }, { id: 2, name: null }]);
    expect({ P: count(sent, 'P'), B: count(sent, 'B'), E: count(sent, 'E'), S: count(sent, 'S'), D: count(sent, 'D') }).toEqual({ P: 1, B: 5, E: 5, S: 5, D: 0 });
    expect({ T: count(received, 'T'), rows: count(received, 'D'), Z: count(received, 'Z') }).toEqual({ T: 0, rows: 5, Z: 5 });
  });

  it('answers a NULL cell as null, takes values of every kind pg writes, and an unnamed statement with values', async () => {
    expect(await driver.queryText('SELECT NULL::text', [], 'a-null')).toBe('null');
    const values = [7, 'x\'y', true, null, [1, 2], { a: 1 }, new Date(Date.UTC(2026, 0, 2))];
    const text = 'SELECT json_build_array($1::int, $2::text, $3::bool, $4::text, $5::int[], $6::jsonb, $7::timestamptz)::text';
    const answer = JSON.parse(await driver.queryText(text, values, undefined)) as unknown[];
    expect(answer.slice(0, 6)).toEqual([7, 'x\'y', true, null, [1, 2], { a: 1 }]);
    expect(Date.parse(answer[6] as string)).toBe(Date.UTC(2026, 0, 2));
  });

  it('answers a value pg cannot write with its error, and the connection serves the next statement', async () => {
    const bad = { toPostgres: () => { throw new Error('cannot write this value'); } };
    await expect(driver.queryText('SELECT $1::text', [bad], 'bad-value')).rejects.toThrow();
    expect(await driver.queryText('SELECT $1::text', ['after'], 'bad-value')).toBe('after');
  });

  it('answers a statement error from PostgreSQL, and the statement runs again afterwards', async () => {
    await expect(driver.queryText('SELECT (1 / $1::int)::text', [0], 'div')).rejects.toThrow(/division by zero/);
    expect(await driver.queryText('SELECT (1 / $1::int)::text', [1], 'div')).toBe('1');
  });
});
