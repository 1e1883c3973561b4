// The oracle fuzzer's fixture: four small tables with nulls, ties and awkward text, the Hasura
// metadata that tracks them with a select permission per role, and the same permissions restated
// by hand as plain SQL (the oracle's side, written independently of Kiln's planner).
import { Rng } from '../fuzz/prng.js';

/** A column's kind decides the operators and values the generator uses. */
export type ColumnKind = 'int' | 'text' | 'bool' | 'numeric';

export interface ColumnDef {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
}

export interface RelationshipDef {
  readonly name: string;
  readonly kind: 'object' | 'array';
  readonly target: string;
  /** [this table's column, the target's column] */
  readonly on: readonly [string, string];
}

export interface TableDef {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  readonly relationships: readonly RelationshipDef[];
}

const col = (name: string, kind: ColumnKind, nullable = true): ColumnDef => ({ name, kind, nullable });

export const TABLES: Readonly<Record<string, TableDef>> = {
  org: {
    name: 'org',
    columns: [col('id', 'int', false), col('name', 'text', false), col('country', 'text')],
    relationships: [{ name: 'authors', kind: 'array', target: 'author', on: ['id', 'org_id'] }],
  },
  author: {
    name: 'author',
    columns: [col('id', 'int', false), col('name', 'text', false), col('org_id', 'int'), col('rating', 'int'), col('is_public', 'bool', false)],
    relationships: [
      { name: 'org', kind: 'object', target: 'org', on: ['org_id', 'id'] },
      { name: 'articles', kind: 'array', target: 'article', on: ['id', 'author_id'] },
    ],
  },
  article: {
    name: 'article',
    columns: [col('id', 'int', false), col('author_id', 'int', false), col('title', 'text', false), col('status', 'text', false),
      col('views', 'int'), col('score', 'numeric')],
    relationships: [
      { name: 'author', kind: 'object', target: 'author', on: ['author_id', 'id'] },
      { name: 'comments', kind: 'array', target: 'comment', on: ['id', 'article_id'] },
    ],
  },
  comment: {
    name: 'comment',
    columns: [col('id', 'int', false), col('article_id', 'int', false), col('author_id', 'int'), col('body', 'text'), col('likes', 'int', false)],
    relationships: [
      { name: 'article', kind: 'object', target: 'article', on: ['article_id', 'id'] },
      { name: 'commenter', kind: 'object', target: 'author', on: ['author_id', 'id'] },
    ],
  },
};

export const ORGS = 5;
export const AUTHORS = 12;
const ARTICLES = 40;
const COMMENTS = 90;

/** Text values the data and the filters draw from: case, LIKE wildcards, quotes, backslashes, non-ASCII, empty. */
export const WORDS = ['Ada', 'ada', 'ADA', 'Brian', 'brïan', 'Zoë', '50% off', 'a_b', 'a\\b', 'O\'Hara', '"q"', '', ' ', 'x', 'Grace Hopper', '日本'];
export const STATUSES = ['published', 'draft', 'archived'];

/** The database: tables with deterministic rows (the same seed every run). */
export function fixtureSql(): string {
  const rng = new Rng(20261125);
  const lit = (v: unknown): string => v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);
  const maybe = <T>(v: T, p = 0.2): T | null => rng.chance(p) ? null : v;
  const rows = (table: string, n: number, make: (i: number) => unknown[]): string =>
    `INSERT INTO ${table} VALUES ${Array.from({ length: n }, (_, i) => `(${make(i + 1).map(lit).join(', ')})`).join(',\n')};`;
  return [
    'CREATE TABLE org (id int PRIMARY KEY, name text NOT NULL, country text)',
    'CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, org_id int REFERENCES org, rating int, is_public boolean NOT NULL)',
    `CREATE TABLE article (id int PRIMARY KEY, author_id int NOT NULL REFERENCES author, title text NOT NULL, status text NOT NULL,
      views int, score numeric(6,2))`,
    `CREATE TABLE comment (id int PRIMARY KEY, article_id int NOT NULL REFERENCES article, author_id int REFERENCES author, body text,
      likes int NOT NULL)`,
    rows('org', ORGS, (i) => [i, rng.pick(WORDS), maybe(rng.pick(['NL', 'FR', 'US', 'JP']))]),
    rows('author', AUTHORS, (i) => [i, rng.pick(WORDS), maybe(rng.int(1, ORGS)), maybe(rng.int(0, 5)), rng.chance(0.5)]),
    rows('article', ARTICLES, (i) => [i, rng.int(1, AUTHORS), rng.pick(WORDS), rng.pick(STATUSES), maybe(rng.int(0, 9) * 10),
      maybe((rng.int(-500, 500) / 100).toFixed(2))]),
    rows('comment', COMMENTS, (i) => [i, rng.int(1, ARTICLES), maybe(rng.int(1, AUTHORS), 0.3), maybe(rng.pick(WORDS)), rng.int(-2, 6)]),
  ].join(';\n');
}

/** One role: its session, and per table the columns it may select, its filter (Hasura JSON and oracle SQL), aggregations. */
export interface RoleDef {
  readonly name: string;
  /** Session headers for one request, from a number the generator picks. */
  readonly session: (n: number) => Record<string, string>;
  readonly tables: Readonly<Record<string, TablePermission>>;
}

export interface TablePermission {
  readonly columns: readonly string[];
  readonly filter: unknown;
  /** The same filter as SQL over alias `t`, session values through `param`. */
  readonly sql: (t: string, session: Record<string, string>, param: (v: unknown) => string) => string;
  readonly aggregations: boolean;
}

const all = (table: string): string[] => TABLES[table]!.columns.map((c) => c.name);
const userId = (s: Record<string, string>): number => Number(s['x-svc-user-id']);
const orgId = (s: Record<string, string>): number => Number(s['x-svc-org-id']);

export const ROLES: readonly RoleDef[] = [
  {
    name: 'admin',
    session: () => ({ 'x-svc-role': 'admin' }),
    tables: Object.fromEntries(Object.keys(TABLES).map((t) => [t, { columns: all(t), filter: {}, sql: () => 'true', aggregations: true }])),
  },
  {
    // Sees public authors and itself, published articles and its own, comments it wrote or on a
    // published article of a public author. User 13 does not exist.
    name: 'user',
    session: (n) => ({ 'x-svc-role': 'user', 'x-svc-user-id': String(1 + (n % (AUTHORS + 1))) }),
    tables: {
      org: { columns: all('org'), filter: {}, sql: () => 'true', aggregations: true },
      author: {
        columns: ['id', 'name', 'org_id', 'is_public'],
        filter: { _or: [{ is_public: { _eq: true } }, { id: { _eq: 'X-Svc-User-Id' } }] },
        sql: (t, s, p) => `(${t}.is_public OR ${t}.id = ${p(userId(s))})`,
        aggregations: true,
      },
      article: {
        columns: all('article'),
        filter: { _or: [{ status: { _eq: 'published' } }, { author_id: { _eq: 'X-Svc-User-Id' } }] },
        sql: (t, s, p) => `(${t}.status = 'published' OR ${t}.author_id = ${p(userId(s))})`,
        aggregations: true,
      },
      comment: {
        columns: all('comment'),
        filter: { _or: [{ author_id: { _eq: 'X-Svc-User-Id' } },
          { article: { _and: [{ status: { _eq: 'published' } }, { author: { is_public: { _eq: true } } }] } }] },
        sql: (t, s, p) => `(${t}.author_id = ${p(userId(s))} OR EXISTS (SELECT 1 FROM article a JOIN author w ON w.id = a.author_id
          WHERE a.id = ${t}.article_id AND a.status = 'published' AND w.is_public))`,
        aggregations: true,
      },
    },
  },
  {
    // Sees its organisation and what its authors wrote, through relationships; org 6 does not exist.
    name: 'member',
    session: (n) => ({ 'x-svc-role': 'member', 'x-svc-org-id': String(1 + (n % (ORGS + 1))) }),
    tables: {
      org: { columns: all('org'), filter: { id: { _eq: 'X-Svc-Org-Id' } }, sql: (t, s, p) => `${t}.id = ${p(orgId(s))}`, aggregations: false },
      author: {
        columns: all('author'), filter: { org_id: { _eq: 'X-Svc-Org-Id' } }, sql: (t, s, p) => `${t}.org_id = ${p(orgId(s))}`, aggregations: false,
      },
      article: {
        columns: all('article'),
        filter: { author: { org_id: { _eq: 'X-Svc-Org-Id' } } },
        sql: (t, s, p) => `EXISTS (SELECT 1 FROM author w WHERE w.id = ${t}.author_id AND w.org_id = ${p(orgId(s))})`,
        aggregations: true,
      },
      comment: {
        columns: ['id', 'article_id', 'likes'],
        filter: { article: { author: { org_id: { _eq: 'X-Svc-Org-Id' } } } },
        sql: (t, s, p) => `EXISTS (SELECT 1 FROM article a JOIN author w ON w.id = a.author_id WHERE a.id = ${t}.article_id
          AND w.org_id = ${p(orgId(s))})`,
        aggregations: true,
      },
    },
  },
  {
    // No session variables, no aggregations, no organisations at all.
    name: 'anon',
    session: () => ({ 'x-svc-role': 'anon' }),
    tables: {
      author: { columns: ['id', 'name'], filter: { is_public: { _eq: true } }, sql: (t) => `${t}.is_public`, aggregations: false },
      article: {
        columns: ['id', 'author_id', 'title', 'views'],
        filter: { _and: [{ status: { _eq: 'published' } }, { author: { is_public: { _eq: true } } }] },
        sql: (t) => `(${t}.status = 'published' AND EXISTS (SELECT 1 FROM author w WHERE w.id = ${t}.author_id AND w.is_public))`,
        aggregations: false,
      },
      comment: {
        columns: ['id', 'article_id', 'likes'],
        filter: { article: { status: { _eq: 'published' } } },
        sql: (t) => `EXISTS (SELECT 1 FROM article a WHERE a.id = ${t}.article_id AND a.status = 'published')`,
        aggregations: false,
      },
    },
  },
];

/** Hasura v2 metadata tracking the four tables with their relationships and every role's select permission. */
export function fixtureMetadata(): unknown {
  return {
    version: 3,
    sources: [{
      name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'UNUSED_DATABASE_URL' } } },
      tables: Object.values(TABLES).map((t) => {
        const rels = (kind: 'object' | 'array'): unknown[] => t.relationships.filter((r) => r.kind === kind).map((r) => ({
          name: r.name,
          using: { manual_configuration: { remote_table: { schema: 'public', name: r.target }, column_mapping: { [r.on[0]]: r.on[1] } } },
        }));
        return {
          table: { schema: 'public', name: t.name },
          object_relationships: rels('object'),
          array_relationships: rels('array'),
          select_permissions: ROLES.filter((r) => r.name !== 'admin' && r.tables[t.name]).map((r) => {
            const p = r.tables[t.name]!;
            return { role: r.name, permission: { columns: p.columns, filter: p.filter, allow_aggregations: p.aggregations } };
          }),
        };
      }),
    }],
  };
}

/** The relationships of a table a role can follow: those whose target it may select. */
export function visibleRelationships(role: RoleDef, table: string): RelationshipDef[] {
  return TABLES[table]!.relationships.filter((r) => role.tables[r.target]);
}

/** The columns of a table a role may select, with their definitions. */
export function visibleColumns(role: RoleDef, table: string): ColumnDef[] {
  const names = new Set(role.tables[table]?.columns ?? []);
  return TABLES[table]!.columns.filter((c) => names.has(c.name));
}
