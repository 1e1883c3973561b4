// A new connection's first statement goes out after the connection's setup statement, not queued
// behind it: the pool hands a client over from inside pg's ready handler, and pg deprecates (and
// will refuse) calling query() while another is queued. Its own file: Node prints a deprecation
// once per process, so an earlier test in the same worker would hide it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let db: TestDatabase;
let driver: Driver;
const warnings: string[] = [];
const onWarning = (w: Error): void => { warnings.push(w.message); };

beforeAll(async () => {
  process.on('warning', onWarning);
  db = await createTestDatabase('pgfirst', '');
  driver = createPgDriver({ url: db.url, max: 4 });
});

afterAll(async () => {
  process.off('warning', onWarning);
  await driver?.close();
  await db?.drop();
});

describe('a new pooled connection', () => {
  it('runs its setup, then the caller\'s statement, with no query queued behind another', async () => {
    const texts = await Promise.all([1, 2, 3, 4].map((v) =>
      driver.queryText(`SELECT json_build_object('v', $1::int, 'tz', current_setting('TimeZone'))::text`, [v], 'first')));
    expect(texts.map((t) => JSON.parse(t))).toEqual([1, 2, 3, 4].map((v) => ({ v, tz: 'UTC' })));
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
  });
});
