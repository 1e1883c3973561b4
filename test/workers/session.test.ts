// GraphQL mutations on tables with event triggers record the session in the event; mutations on
// other tables do not set it at all (they run as before: no set_config, no transaction).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startEventServer, type EventServer } from './event-server.js';

describe('session variables in captured events', () => {
  let db: TestDatabase;
  let s: EventServer;
  const sessions = async (): Promise<unknown[]> =>
    (await db.query<{ s: unknown }>(`SELECT payload->'session_variables' AS s FROM svc_catalog.event_log ORDER BY created_at`)).map((r) => r.s);
  const user = { 'x-svc-role': 'user', 'x-svc-user-id': '7' };

  beforeAll(async () => {
    db = await createTestDatabase('evsession', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, owner text);
      CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int REFERENCES author (id));
      CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL);
      CREATE TABLE probe (seen text);
      CREATE FUNCTION probe_session() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO probe VALUES (coalesce(nullif(current_setting('svc.user', true), ''), 'unset')); RETURN NULL; END $$;
      CREATE TRIGGER probe AFTER INSERT ON note FOR EACH ROW EXECUTE PROCEDURE probe_session();`);
    s = await startEventServer(db.url);
    const perms = (table: string, columns: string[]) => [
      { type: 'pg_create_insert_permission', args: { table, role: 'user', permission: { check: {}, columns, set: table === 'author' ? { owner: 'X-Svc-User-Id' } : {} } } },
      { type: 'pg_create_select_permission', args: { table, role: 'user', permission: { columns: ['id', ...columns], filter: {} } } },
    ];
    const r = await s.meta({ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: 'article' } },
      { type: 'pg_track_table', args: { table: 'note' } },
      { type: 'pg_create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      ...perms('author', ['name']), ...perms('article', ['title', 'author_id']), ...perms('note', ['body']),
      { type: 'pg_create_update_permission', args: { table: 'author', role: 'user', permission: { columns: ['name'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
      { type: 'pg_create_event_trigger', args: { name: 'author_changes', table: 'author', webhook: 'http://127.0.0.1:9/h',
        insert: { columns: '*' }, update: { columns: '*' } } },
    ] });
    expect(r.status).toBe(200);
  });

  beforeEach(async () => {
    await db.exec('TRUNCATE svc_catalog.event_log, probe');
  });

  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('records the role and session variables of an insert, lower-case', async () => {
    const r = await s.gql('mutation { insert_author_one(object: {name: "ann"}) { id } }', {}, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '7' });
    expect(r.errors).toBeUndefined();
    expect(await sessions()).toEqual([{ 'x-svc-role': 'user', 'x-svc-user-id': '7' }]);
  });

  it('records the session of an update and of an admin request', async () => {
    await s.gql('mutation { insert_author_one(object: {name: "bea"}) { id } }', {}, user);
    await db.exec('TRUNCATE svc_catalog.event_log');
    const r = await s.gql('mutation { update_author(where: {name: {_eq: "bea"}}, _set: {name: "cid"}) { affected_rows } }', {}, user);
    expect(r).toEqual({ data: { update_author: { affected_rows: 1 } } });
    await s.gql('mutation { insert_author(objects: [{name: "dan"}]) { affected_rows } }');
    expect(await sessions()).toEqual([{ 'x-svc-role': 'user', 'x-svc-user-id': '7' }, { 'x-svc-role': 'admin' }]);
  });

  it('records the session of a nested insert into a table with a trigger', async () => {
    const r = await s.gql('mutation { insert_article_one(object: {title: "t", author: {data: {name: "eve"}}}) { id } }', {}, user);
    expect(r.errors).toBeUndefined();
    expect(await sessions()).toEqual([{ 'x-svc-role': 'user', 'x-svc-user-id': '7' }]);
  });

  it('does not set the session for a table without event triggers, nor leave it set after a mutation', async () => {
    await s.gql('mutation { insert_author_one(object: {name: "fay"}) { id } }', {}, user);
    for (let i = 0; i < 6; i++) {
      const r = await s.gql('mutation { insert_note_one(object: {body: "n"}) { id } }', {}, user);
      expect(r.errors).toBeUndefined();
    }
    expect(await db.query('SELECT DISTINCT seen FROM probe')).toEqual([{ seen: 'unset' }]);
    const tables = s.api.current.compiled.model.tables;
    expect([tables['default:public.author']?.eventTriggers, tables['default:public.note']?.eventTriggers]).toEqual([['author_changes'], undefined]);
  });

  it('a change made outside the engine has no session', async () => {
    await db.exec(`INSERT INTO author (name) VALUES ('gus')`);
    expect(await sessions()).toEqual([null]);
  });
});
