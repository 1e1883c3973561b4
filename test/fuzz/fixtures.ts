// The fixtures the fuzzer runs on: their database, the roles with the session each needs, and
// each role's row filters restated from the database directly (the differential check).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TableModel } from '../../runtime/bundle/index.js';
import type { TestDatabase } from '../helpers/database.js';
import type { RowRule } from './check.js';
import type { Rng } from './prng.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures');

/** What the fuzzer knows about one role of a fixture. */
export interface RoleCase {
  readonly role: string;
  /** Run against a server started with stringified numbers. */
  readonly stringify?: boolean;
  /** Session headers for one request. */
  readonly headers: (rng: Rng) => Record<string, string>;
}

/** Facts read from the database once, for the role rules. */
export interface Facts {
  readonly publicAuthors: ReadonlySet<number>;
  readonly readerArticles: ReadonlySet<number>;
  readonly publishedArticles: ReadonlySet<number>;
  readonly invoiceCustomer: ReadonlyMap<number, number>;
}

export interface FixtureCase {
  readonly name: string;
  readonly files: readonly string[];
  readonly roles: readonly RoleCase[];
  readonly limitChance: { readonly root: number; readonly nested: number };
  readonly nestedAggregateOrder: boolean;
  /** The role's filter on rows of a table type, for the given session headers. */
  readonly rule: (role: string, typeName: string, headers: Record<string, string>, facts: Facts) => RowRule | null;
}

const int = (v: unknown): number => Number(v);

export const FIXTURES: readonly FixtureCase[] = [
  {
    name: 'blog',
    files: ['blog/schema.sql'],
    limitChance: { root: 0.3, nested: 0.4 },
    nestedAggregateOrder: true,
    roles: [
      { role: 'admin', headers: () => ({ 'x-svc-role': 'admin' }) },
      // Author 4 does not exist: the user sees no author and only published articles.
      { role: 'user', headers: (rng) => ({ 'x-svc-role': 'user', 'x-svc-user-id': String(rng.int(1, 4)) }) },
      { role: 'reader', headers: () => ({ 'x-svc-role': 'reader' }) },
      { role: 'user', stringify: true, headers: (rng) => ({ 'x-svc-role': 'user', 'x-svc-user-id': String(rng.int(1, 4)) }) },
    ],
    rule(role, typeName, headers, facts) {
      const uid = Number(headers['x-svc-user-id']);
      if (role === 'user' && typeName === 'author') return { needs: ['id'], ok: (r) => int(r.id) === uid };
      if (role === 'user' && typeName === 'article') {
        return { needs: ['author_id', 'status'], ok: (r) => int(r.author_id) === uid || r.status === 'published' };
      }
      if (role === 'reader' && typeName === 'author') return { needs: ['id'], ok: (r) => facts.publicAuthors.has(int(r.id)) };
      if (role === 'reader' && typeName === 'article') return { needs: ['id'], ok: (r) => facts.readerArticles.has(int(r.id)) };
      if (role === 'reader' && typeName === 'content_article_tag') {
        return { needs: ['article_id'], ok: (r) => facts.publishedArticles.has(int(r.article_id)) };
      }
      return null;
    },
  },
  {
    name: 'chinook',
    files: ['chinook/schema.sql', 'chinook/post.sql'],
    // Lists always get a limit (never null): 8,715 playlist_tracks, each with its playlist's
    // 3,290-row aggregate, is a 12 s answer of millions of rows; an unlimited list of 3,290
    // playlist tracks under each of 3,290 nodes took 30 s. Big, not wrong.
    limitChance: { root: 1, nested: 1 },
    // playlist_track ordered by playlist.playlist_tracks_aggregate.count took 8.6 s (a correlated
    // count per row); the planner is right, just slow, so the generator leaves that shape out here.
    nestedAggregateOrder: false,
    roles: [
      { role: 'admin', headers: () => ({ 'x-svc-role': 'admin' }) },
      // Customers are 1..59; 60 has no invoices.
      { role: 'customer', headers: (rng) => ({ 'x-svc-role': 'customer', 'x-svc-customer-id': String(rng.int(1, 60)) }) },
      { role: 'customer', stringify: true, headers: (rng) => ({ 'x-svc-role': 'customer', 'x-svc-customer-id': String(rng.int(1, 60)) }) },
    ],
    rule(role, typeName, headers, facts) {
      const cid = Number(headers['x-svc-customer-id']);
      if (role === 'customer' && typeName === 'invoice') return { needs: ['customer_id'], ok: (r) => int(r.customer_id) === cid };
      if (role === 'customer' && typeName === 'invoice_line') {
        return { needs: ['invoice_id'], ok: (r) => facts.invoiceCustomer.get(int(r.invoice_id)) === cid };
      }
      return null;
    },
  },
];

/** The SQL that loads a fixture. */
export async function fixtureSql(f: FixtureCase): Promise<string> {
  const texts = await Promise.all(f.files.map((file) => readFile(join(root, file), 'utf8')));
  return texts.join('\n');
}

/** The fixture's metadata without source configuration, so the harness serves the test database. */
export async function fixtureMetadata(f: FixtureCase): Promise<unknown> {
  const md = JSON.parse(await readFile(join(root, f.name, 'metadata.json'), 'utf8')) as { sources: Record<string, unknown>[] };
  for (const s of md.sources) delete s.configuration;
  return md;
}

/** The facts behind the role rules, read straight from the database. */
export async function readFacts(f: FixtureCase, db: TestDatabase): Promise<Facts> {
  const ids = async (q: string): Promise<Set<number>> => new Set((await db.query<{ id: number }>(q)).map((r) => r.id));
  if (f.name === 'blog') {
    return {
      publicAuthors: await ids('SELECT id FROM author WHERE is_public'),
      readerArticles: await ids(`SELECT a.id FROM article a JOIN author u ON u.id = a.author_id WHERE a.status = 'published' AND u.is_public`),
      publishedArticles: await ids(`SELECT id FROM article WHERE status = 'published'`),
      invoiceCustomer: new Map(),
    };
  }
  const rows = await db.query<{ invoice_id: number; customer_id: number }>('SELECT invoice_id, customer_id FROM invoice');
  return { publicAuthors: new Set(), readerArticles: new Set(), publishedArticles: new Set(),
    invoiceCustomer: new Map(rows.map((r) => [r.invoice_id, r.customer_id])) };
}

/** Up to six distinct non-null values of every column, as JSON, keyed `<type>.<field>` (sorted: deterministic). */
export async function readSamples(tables: readonly TableModel[], db: TestDatabase): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;
  for (const t of tables) {
    for (const c of t.columns) {
      const rows = await db.query<{ v: unknown }>(
        `SELECT v FROM (SELECT DISTINCT to_jsonb(${q(c.name)}) AS v FROM ${q(t.schema)}.${q(t.name)} WHERE ${q(c.name)} IS NOT NULL) s ORDER BY v LIMIT 6`);
      out.set(`${t.typeName}.${c.field}`, rows.map((r) => r.v));
    }
  }
  return out;
}
