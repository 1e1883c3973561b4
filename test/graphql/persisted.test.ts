// Stored queries run from the plan compiled into the bundle: a request whose text is a stored
// query's is answered with no parse, no validation and no planning at request time (the engine
// counts them), with the role's own permission predicates and session values as parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { as, gql, Q, SETUP, startStored, type StoredKiln } from '../server/stored-helpers.js';

let db: TestDatabase;
let kiln: StoredKiln;

beforeAll(async () => {
  db = await createTestDatabase('persisted', SETUP);
  kiln = await startStored({ databaseUrl: db.url });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

// The counters' change over `fn`.
async function work(k: StoredKiln, fn: () => Promise<unknown>): Promise<{ parses: number; validations: number; plans: number }> {
  const before = k.engine.stats;
  await fn();
  const after = k.engine.stats;
  return { parses: after.parses - before.parses, validations: after.validations - before.validations, plans: after.plans - before.plans };
}

const NONE = { parses: 0, validations: 0, plans: 0 };

describe('stored queries run from their compiled plan', () => {
  it('answers the first request of a stored text with no parse, validation or plan', async () => {
    let body: any;
    expect(await work(kiln, async () => { body = (await gql(kiln.url, Q.authors, as('admin'))).body; })).toEqual(NONE);
    expect(body).toEqual({ data: { author: [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }, { id: 3, name: 'cyd' }] } });
  });

  it('binds the role\'s session values into its own plan: each user sees only themself', async () => {
    let one: any;
    let two: any;
    const delta = await work(kiln, async () => {
      one = (await gql(kiln.url, Q.authors, as('user', { 'x-svc-user-id': '1' }))).body;
      two = (await gql(kiln.url, Q.authors, as('user', { 'x-svc-user-id': '2' }))).body;
    });
    expect(delta).toEqual(NONE);
    expect(one).toEqual({ data: { author: [{ id: 1, name: 'ann' }] } });
    expect(two).toEqual({ data: { author: [{ id: 2, name: 'bob' }] } });
  });

  it('coerces variables without a parse, and a missing one is refused as for any query', async () => {
    let ok: any;
    expect(await work(kiln, async () => { ok = (await gql(kiln.url, Q.byId, as('reader'), { id: 3 })).body; })).toEqual(NONE);
    expect(ok).toEqual({ data: { author_by_pk: { id: 3, name: 'cyd' } } });
    const hidden = await gql(kiln.url, Q.byId, as('reader'), { id: 2 });
    expect(hidden.body).toEqual({ data: { author_by_pk: null } });
    const missing = await gql(kiln.url, Q.byId, as('reader'), {});
    expect(missing.body.errors[0]).toEqual({ message: 'expecting a value for non-nullable variable: "id"', extensions: { path: '$', code: 'validation-failed' } });
  });

  it('plans an ad-hoc query once (parse, validate, plan), then serves it from the cache', async () => {
    const adhoc = 'query { author(order_by: {id: desc}, limit: 1) { name } }';
    expect(await work(kiln, () => gql(kiln.url, adhoc, as('admin')))).toEqual({ parses: 1, validations: 1, plans: 1 });
    expect(await work(kiln, () => gql(kiln.url, adhoc, as('admin')))).toEqual(NONE);
  });

  it('a stored query whose variables shape the statement is planned per request, but never parsed again', async () => {
    let body: any;
    const delta = await work(kiln, async () => { body = (await gql(kiln.url, Q.ordered, as('admin'), { order: [{ name: 'desc' }] })).body; });
    expect(delta).toEqual({ parses: 0, validations: 0, plans: 1 });
    expect(body).toEqual({ data: { author: [{ name: 'cyd' }, { name: 'bob' }, { name: 'ann' }] } });
    expect(await work(kiln, () => gql(kiln.url, Q.ordered, as('admin'), { order: [{ name: 'desc' }] }))).toEqual(NONE);
  });

  it('a role whose schema does not validate a stored query gets the usual error', async () => {
    // `reader` has no select permission on article.
    const r = await gql(kiln.url, Q.articles, as('reader'));
    expect(r.body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('runs a stored mutation from its compiled guarded statements', async () => {
    let body: any;
    expect(await work(kiln, async () => { body = (await gql(kiln.url, Q.addArticle, as('admin'), { title: 'stored', author: 3 })).body; })).toEqual(NONE);
    expect(body).toEqual({ data: { insert_article_one: { title: 'stored' } } });
    expect(await db.query('SELECT title FROM article WHERE author_id = 3')).toEqual([{ title: 'stored' }]);
  });
});

describe('an engine serving a bundle with other settings than it was compiled with', () => {
  it('plans the stored queries once when it is made, and still answers them with no request-time work', async () => {
    const other = await startStored({ databaseUrl: db.url, stringifyNumeric: true });
    try {
      // Compiled printing numerics as numbers; served printing them as strings.
      expect((await gql(kiln.url, Q.ratings, as('admin'))).body).toEqual({ data: { author: [{ rating: 4.5 }, { rating: 3 }, { rating: null }] } });
      let body: any;
      expect(await work(other, async () => { body = (await gql(other.url, Q.ratings, as('admin'))).body; })).toEqual(NONE);
      expect(body).toEqual({ data: { author: [{ rating: '4.5' }, { rating: '3.0' }, { rating: null }] } });
    } finally {
      await other.close();
    }
  });
});
