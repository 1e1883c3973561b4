// How a bundle's text files sit on disk. A bundle has, per role, a schema and one SQL file per
// root field; on a large schema most roles see the same schema and run the same SQL for most
// fields (they differ in a row limit, or in the tables they may write). Text that several roles
// share is written once, content-addressed, and each role refers to it:
//
//   shared/<hash>.sql        a statement several roles run (their files differ only in the
//                            `-- role:` line, which is put back when the bundle is read)
//   shared/<hash>.graphql    a schema several roles see
//   sql/<role>/links.json    { "<file in sql/<role>/>": "<hash>" } for that role's shared statements;
//                            when several roles have the same links, they are shared/<hash>.links.json
//                            and each role's links.json is { "links": "<hash>" }
//   manifest.json `schemas`  { "<role>": "<path of its schema>" }
//
// Text only one role has stays at its own path (`sql/<role>/<field>.sql`, `schema/<role>.graphql`),
// so a small bundle looks as it always did.
//
// A large bundle's distinct schemas (more than POOL_SCHEMAS_OVER bytes together) still repeat most
// of each other: the types of the tables every role reads are the same text in each. Their
// definitions are then written once, and each schema is a list of pieces of that text:
//
//   shared/schema-definitions.graphql   every distinct definition (with its description) of every
//                                       schema, once, in the order the schemas first have them
//   shared/<hash>.schema.json           { "pool": "schema-definitions.graphql", "ranges": [[begin, end], ...] }:
//                                       the schema's text is these byte ranges of the pool, joined
//
// `kiln inspect --schema`, `kiln diff` and `kiln check` read each role's schema back whole
// (expandLayout); the runtime indexes a schema from its ranges and reads a definition at a time.
//
// A large bundle's distinct statements (more than DELTA_STATEMENTS_OVER bytes together) still
// repeat each other: the statements of one table for admin and for each class of roles differ in
// the role's filter, a row limit, a parameter line. Each is then stored either whole or, when much
// shorter so, as the changes that make it of another statement of the same table:
//
//   <path>.delta.json   in place of <path> (`sql/<role>/<field>.sql` or `shared/<hash>.sql`):
//                       { "base": "<stored path of a statement>", "rename": [from, to], "edits": [[at, remove, "insert"], ...] }
//                       over the base's text without its `-- role:` line, with every `from` replaced
//                       by `to` when "rename" is there (offsets in UTF-16 code units)
//
// A base is stored whole or is itself changes of another (at most three steps from a whole one).

import { createHash } from 'node:crypto';
import { indexSdl, pooledBytes, type PooledSchema } from './sdl-index.js';
import { applyDelta, textDelta, TokenTable, type TextEdit } from './text-delta.js';

export type { PooledSchema };

/** Distinct schemas larger than this together (bytes) have their definitions stored once. */
export const POOL_SCHEMAS_OVER = 1024 * 1024;

/** Distinct statements larger than this together (bytes) are stored as changes of each other where that is much shorter. */
export const DELTA_STATEMENTS_OVER = 1024 * 1024;

/** The suffix of a statement stored as the changes of another (`shared/<hash>.sql.delta.json`). */
export const DELTA_SUFFIX = '.delta.json';

/** The text all pooled schemas' definitions are stored in. */
export const SCHEMA_POOL = 'shared/schema-definitions.graphql';

/** The name of a shared text: the first 20 hex digits of its sha256. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** The stored files of a bundle and where each role's schema is. */
export interface StoredLayout {
  /** Path on disk -> content (manifest.json not included). */
  readonly files: Map<string, string>;
  /** Role -> the stored path of its schema. */
  readonly schemas: { [role: string]: string };
}

const SQL = /^sql\/([^/]+)\/(.+\.sql)$/;
const SCHEMA = /^schema\/([^/]+)\.graphql$/;

// The part of a per-role file several roles may share: the SQL without its `-- role:` line.
function shareable(path: string, content: string): { kind: 'sql' | 'graphql'; role: string; rest: string; body: string } | null {
  const sql = SQL.exec(path);
  if (sql) {
    const first = `-- role: ${sql[1]}\n`;
    return content.startsWith(first) ? { kind: 'sql', role: sql[1]!, rest: sql[2]!, body: content.slice(first.length) } : null;
  }
  const schema = SCHEMA.exec(path);
  return schema ? { kind: 'graphql', role: schema[1]!, rest: '', body: content } : null;
}

/** Lays the logical files of a bundle (one per role and field) out on disk, sharing repeated text. */
export function storedLayout(files: ReadonlyMap<string, string>, poolSchemasOver = POOL_SCHEMAS_OVER,
  deltaStatementsOver = DELTA_STATEMENTS_OVER): StoredLayout {
  // Counted per kind by the text itself (no key built by concatenation: a role's SDL is megabytes,
  // and a Map hashes a new string in full), each shared text hashed once.
  const uses = { sql: new Map<string, number>(), graphql: new Map<string, number>() };
  const parts = new Map<string, ReturnType<typeof shareable>>();
  for (const [path, content] of files) {
    const part = shareable(path, content);
    parts.set(path, part);
    if (part) uses[part.kind].set(part.body, (uses[part.kind].get(part.body) ?? 0) + 1);
  }
  const hashes = new Map<string, string>();
  const hashOf = (body: string): string => {
    let h = hashes.get(body);
    if (h === undefined) hashes.set(body, (h = contentHash(body)));
    return h;
  };
  const out = new Map<string, string>();
  // Stored path -> the statement's text without its role line, for every statement stored once.
  const statements = new Map<string, string>();
  const links = new Map<string, { [file: string]: string }>();
  const schemas: { [role: string]: string } = {};
  const pooled = [...uses.graphql.keys()].reduce((n, text) => n + text.length, 0) > poolSchemasOver ? poolSchemas([...uses.graphql.keys()]) : null;
  if (pooled) out.set(SCHEMA_POOL, pooled.pool);
  for (const [path, content] of files) {
    const part = parts.get(path);
    if (pooled && part?.kind === 'graphql') {
      const listing = `shared/${hashOf(part.body)}.schema.json`;
      out.set(listing, pooled.listings.get(part.body)!);
      schemas[part.role] = listing;
      continue;
    }
    if (!part || uses[part.kind].get(part.body)! < 2) {
      out.set(path, content);
      if (part?.kind === 'graphql') schemas[part.role] = path;
      if (part?.kind === 'sql') statements.set(path, part.body);
      continue;
    }
    const hash = hashOf(part.body);
    const shared = `shared/${hash}.${part.kind}`;
    out.set(shared, part.body);
    if (part.kind === 'sql') statements.set(shared, part.body);
    if (part.kind === 'graphql') schemas[part.role] = shared;
    else {
      let mine = links.get(part.role);
      if (!mine) links.set(part.role, (mine = {}));
      mine[part.rest] = hash;
    }
  }
  const linkTexts = new Map<string, string>();
  const linkUses = new Map<string, number>();
  for (const [role, mine] of links) {
    const sorted = Object.fromEntries(Object.entries(mine).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const text = `${JSON.stringify(sorted).replace(/,"/g, ',\n"')}\n`;
    linkTexts.set(role, text);
    linkUses.set(text, (linkUses.get(text) ?? 0) + 1);
  }
  // Roles that run the same statements under the same names (a large schema's roles that differ
  // only in a session variable's value) have the same links: written once.
  for (const [role, text] of linkTexts) {
    if (linkUses.get(text)! < 2) {
      out.set(`sql/${role}/links.json`, text);
      continue;
    }
    const hash = hashOf(text);
    out.set(`shared/${hash}.links.json`, text);
    out.set(`sql/${role}/links.json`, `${JSON.stringify({ links: hash })}\n`);
  }
  if ([...statements.values()].reduce((n, body) => n + body.length, 0) > deltaStatementsOver) {
    for (const [path, delta] of deltaStatements(statements)) {
      out.delete(path);
      out.set(`${path}${DELTA_SUFFIX}`, delta);
    }
  }
  return { files: new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), schemas };
}

// What a statement's header says it is: its root field (a live query's with `.subscription`), its
// table, and its kind: the first line's kind (`root field (insert_one`) with the header lines after
// the query (the role's filter and checks, the parameters; of a root template, its filter), which are the same for the statements
// of tables alike (same columns) and roles alike. Null: a function's root field, a text of another
// shape (stored whole).
function statementKey(body: string): { readonly field: string; readonly table: string; readonly kind: string } | null {
  const first = /^-- (root field|subscription): (\S+) \((.*) on (\S+)\)\n/.exec(body);
  if (!first) return null;
  // A root template's lines name the table (its source, its columns): of those only its filter
  // is of the kind, as the filter line alone was before root templates were shown. A mutation
  // template's first line names the written table: the rest of it (columns, presets, filter) is.
  const header = /^(?:-- .*\n)*/.exec(body)![0].split('\n').slice(2)
    .flatMap((l) => (l.startsWith('--   from: ') ? [`--   ${l.slice(l.indexOf('; filter: ') + 2)}`] : l.startsWith('--   columns: ') ? []
      : MUTATION_TARGET.test(l) ? [l.replace(MUTATION_TARGET, '--   ')] : [l])).join('\n');
  return { field: `${first[2]}${first[1] === 'subscription' ? '.subscription' : ''}`, table: first[4]!, kind: `${first[1]} (${first[3]}\n${header}` };
}

// The written table at the start of a mutation template's first header line (compiler/emit mutationTemplateLines).
const MUTATION_TARGET = /^-- {3}(?:insert into|update|delete from): [^;]*; /;

/** A delta is kept when it is shorter than this share of the statement's text. */
const DELTA_AT_MOST = 0.8;
/** A delta of a statement of its kind this short is taken without trying its own table's. */
const SHORT_DELTA = 0.15;
/** A statement is at most this many steps of changes from one stored whole. */
const MAX_DEPTH = 3;
/** Bases of the same table tried for a statement whose field has none yet (those of the fields named most like it). */
const BASES_TRIED = 1;

// The length of the common beginning of two field names (`update_t` is closer to `update_t_by_pk`
// than to `t`: a root field's statements look most like those of fields named like it).
const commonStart = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

// A table's name without its schema: what a statement of another table is renamed by.
const tableName = (table: string): string => table.slice(table.lastIndexOf('.') + 1);

// The statements (stored path -> text) to store as changes of another, with their delta files'
// text. A statement is first tried against the first statement of its kind (see statementKey),
// its table's name put in place of the other's (`"rename": [from, to]`): tables alike differ in
// little else. Failing a short delta so, it is tried against a statement of its own table for the
// same field, or for the field named most like it, and the shortest delta is kept. They come in a
// fixed order (each role's own files, then shared/, each by path), so the same statements always
// give the same choices.
function deltaStatements(statements: ReadonlyMap<string, string>): Map<string, string> {
  const order = [...statements.keys()].sort((x, y) => {
    const sx = x.startsWith('shared/') ? 1 : 0;
    const sy = y.startsWith('shared/') ? 1 : 0;
    return sx !== sy ? sx - sy : x < y ? -1 : x > y ? 1 : 0;
  });
  const table = new TokenTable();
  const tokens = new Map<string, ReturnType<TokenTable['tokens']>>();
  const tokensOf = (path: string): ReturnType<TokenTable['tokens']> => {
    let t = tokens.get(path);
    if (!t) tokens.set(path, (t = table.tokens(statements.get(path)!)));
    return t;
  };
  // Per table, a statement of each field (the first one), whole or not; how many steps each
  // statement is from a whole one; per kind, the first statement a delta may be made of.
  const bases = new Map<string, Map<string, string>>();
  const depth = new Map<string, number>();
  const ofKind = new Map<string, { readonly path: string; readonly table: string }>();
  const out = new Map<string, string>();
  for (const path of order) {
    const body = statements.get(path)!;
    const key = statementKey(body);
    if (!key) continue;
    let mine = bases.get(key.table);
    if (!mine) bases.set(key.table, (mine = new Map()));
    const same = mine.get(key.field);
    let best = null as { base: string; text: string } | null;
    const consider = (base: string, rename: readonly [string, string] | null): void => {
      const baseText = rename ? statements.get(base)!.replaceAll(rename[0], rename[1]) : statements.get(base)!;
      const baseTokens = rename ? table.tokens(baseText) : tokensOf(base);
      const limit = Math.ceil((baseTokens.ids.length + tokensOf(path).ids.length) / 2);
      const edits = textDelta(baseText, baseTokens, body, tokensOf(path), limit);
      if (!edits) return;
      const text = deltaText(base, rename, edits);
      if (!best || text.length < best.text.length) best = { base, text };
    };
    const kin = ofKind.get(key.kind);
    if (kin && kin.table !== key.table) {
      const [from, to] = [tableName(kin.table), tableName(key.table)];
      consider(kin.path, from.length >= 3 && from !== to ? [from, to] : null);
    }
    const kinDelta = best as { base: string; text: string } | null;
    if (!kinDelta || kinDelta.text.length >= body.length * SHORT_DELTA) {
      const near = [...mine.keys()].sort((a, b) => commonStart(b, key.field) - commonStart(a, key.field) || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, BASES_TRIED).map((f) => mine.get(f)!);
      for (const base of same !== undefined ? [same] : near) if (depth.get(base)! < MAX_DEPTH) consider(base, null);
    }
    const chosen = best as { base: string; text: string } | null;
    depth.set(path, chosen && chosen.text.length < body.length * DELTA_AT_MOST ? depth.get(chosen.base)! + 1 : 0);
    if (depth.get(path)! > 0) out.set(path, chosen!.text);
    if (!ofKind.has(key.kind) && depth.get(path)! < MAX_DEPTH) ofKind.set(key.kind, { path, table: key.table });
    if (same === undefined) mine.set(key.field, path);
  }
  return out;
}

// A delta file: its base (and the renaming applied to the base first), then one edit a line.
function deltaText(base: string, rename: readonly [string, string] | null, edits: readonly TextEdit[]): string {
  const renamed = rename ? `,"rename":${JSON.stringify(rename)}` : '';
  return `{"base":${JSON.stringify(base)}${renamed},"edits":[\n${edits.map((e) => JSON.stringify(e)).join(',\n')}]}\n`;
}

/**
 * A statement's text without its role line, from the stored files: `path` is where it is stored
 * whole (`shared/<hash>.sql`, `sql/<role>/<field>.sql`); when only `<path>.delta.json` is there,
 * the text its base and edits make. Undefined: neither is stored.
 */
export function storedStatement(path: string, read: (path: string) => string | undefined, steps = 0): string | undefined {
  const whole = read(path);
  if (whole !== undefined) return withoutRoleLine(path, whole);
  const delta = read(`${path}${DELTA_SUFFIX}`);
  if (delta === undefined || steps >= MAX_DEPTH) return undefined;
  const { base, rename, edits } = JSON.parse(delta) as { base: string; rename?: [string, string]; edits: TextEdit[] };
  const baseText = storedStatement(base, read, steps + 1);
  if (baseText === undefined) return undefined;
  return applyDelta(rename ? baseText.replaceAll(rename[0], rename[1]) : baseText, edits);
}

function withoutRoleLine(path: string, text: string): string {
  const role = SQL.exec(path)?.[1];
  return role !== undefined && text.startsWith(`-- role: ${role}\n`) ? text.slice(`-- role: ${role}\n`.length) : text;
}

// The definitions of each distinct schema text, each distinct one stored once in a pool (in the
// order the texts, as given, first have them); each text as the byte ranges of the pool it joins.
function poolSchemas(texts: readonly string[]): { pool: string; listings: Map<string, string> } {
  const at = new Map<string, number>();
  const pieces: Buffer[] = [];
  let size = 0;
  const listings = new Map<string, string>();
  for (const text of texts) {
    const bytes = Buffer.from(text, 'utf8');
    const { ranges } = indexSdl(bytes);
    const runs: [number, number][] = [];
    // Bytes before the first definition (none in a printed schema) are a piece of their own.
    const cuts = [0, ...Array.from({ length: ranges.length / 2 }, (_, k) => ranges[2 * k]!).filter((b) => b > 0), bytes.length];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const piece = bytes.subarray(cuts[k]!, cuts[k + 1]!);
      const key = piece.toString('latin1');
      let begin = at.get(key);
      if (begin === undefined) {
        at.set(key, (begin = size));
        pieces.push(piece);
        size += piece.length;
      }
      const last = runs[runs.length - 1];
      if (last && last[1] === begin) last[1] = begin + piece.length;
      else runs.push([begin, begin + piece.length]);
    }
    listings.set(text, `${JSON.stringify({ pool: SCHEMA_POOL.slice('shared/'.length), ranges: runs }).replace(/\],\[/g, '],\n[')}\n`);
  }
  return { pool: Buffer.concat(pieces).toString('utf8'), listings };
}


/**
 * The logical files back from the stored ones: each role's shared statements under
 * `sql/<role>/`, with its `-- role:` line, and each role's schema at `schema/<role>.graphql`.
 */
export function expandLayout(stored: ReadonlyMap<string, string>, schemas: { readonly [role: string]: string } = {}): Map<string, string> {
  const out = new Map<string, string>();
  const read = (path: string): string | undefined => stored.get(path);
  for (const [path, content] of stored) {
    if (path.startsWith('shared/')) continue;
    const own = path.endsWith(DELTA_SUFFIX) ? SQL.exec(path.slice(0, -DELTA_SUFFIX.length)) : null;
    if (own) {
      const body = storedStatement(own[0], read);
      if (body !== undefined) out.set(own[0], `-- role: ${own[1]}\n${body}`);
      continue;
    }
    const link = /^sql\/([^/]+)\/links\.json$/.exec(path);
    if (!link) {
      out.set(path, content);
      continue;
    }
    const role = link[1]!;
    for (const [file, hash] of Object.entries(readLinks(content, (hash) => stored.get(`shared/${hash}.links.json`)))) {
      const body = storedStatement(`shared/${hash}.sql`, read);
      if (body !== undefined) out.set(`sql/${role}/${file}`, `-- role: ${role}\n${body}`);
    }
  }
  let pool: Buffer | undefined;
  for (const [role, path] of Object.entries(schemas)) {
    const text = stored.get(path);
    if (text === undefined) continue;
    if (!path.endsWith('.schema.json')) {
      out.set(`schema/${role}.graphql`, text);
      continue;
    }
    const listing = JSON.parse(text) as PooledSchema;
    pool ??= Buffer.from(stored.get(`shared/${listing.pool}`) ?? '', 'utf8');
    out.set(`schema/${role}.graphql`, pooledBytes(listing, pool).toString('utf8'));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A role's links.json: file -> hash of its shared statement; a role whose links are shared with
 * others names them (`{"links": "<hash>"}`), and `shared` reads that file's text (undefined: missing).
 */
export function readLinks(text: string, shared: (hash: string) => string | undefined): { [file: string]: string } {
  const links = JSON.parse(text) as { [file: string]: string };
  const keys = Object.keys(links);
  if (keys.length !== 1 || keys[0] !== 'links') return links;
  const own = shared(links['links']!);
  return own === undefined ? {} : (JSON.parse(own) as { [file: string]: string });
}

/** Where a bundle stores a remote schema's SDL: `remote/<name>.graphql`, or a hash of the name when it is not a plain file name. */
export function remoteSdlFile(name: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,100}$/.test(name) ? `remote/${name}.graphql` : `remote/${contentHash(name)}.graphql`;
}
