// fast-check arbitraries for hostile requests: valid operations with their text mutated, garbage
// text, deep nesting of every kind, alias floods, fragment bombs, bad variables, bad body shapes
// and batches, under random roles and session values.
import fc from 'fast-check';
import { ROLES } from './fixture.js';
import { Generators } from './gen.js';
import { render } from './render.js';

/** One hostile request: the route, the raw body text and the headers. */
export interface Hostile {
  readonly path: '/v1/graphql' | '/v1alpha1/graphql' | '/v1/graphql/explain';
  readonly body: string;
  readonly headers: Record<string, string>;
  /** What made it, for the report. */
  readonly kind: string;
}

const ALPHABET = ['{', '}', '(', ')', '[', ']', ':', '$', '@', '!', '.', '...', ',', '"', '\\', '\n', '#', '=', '|', '&', ' ',
  'query', 'mutation', 'subscription', 'fragment', 'on', '__typename', '__schema', 'null', 'true', '-1', '1e309', '"""', '\u0000', '\uD800', 'é'];

const valid = fc.constantFrom(...ROLES.filter((r) => r.name !== 'admin')).chain((role) => new Generators(role).request().map(render));

// A valid operation's text cut, spliced and duplicated at random places.
const mutated = fc.tuple(valid, fc.array(fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'dup'), fc.integer({ min: 1, max: 20 }),
  fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 4 })), { minLength: 1, maxLength: 6 }))
  .map(([doc, edits]) => {
    let q = doc.query;
    for (const [at, kind, len, words] of edits) {
      const i = at % (q.length + 1);
      if (kind === 'delete') q = q.slice(0, i) + q.slice(i + len);
      else if (kind === 'insert') q = q.slice(0, i) + words.join('') + q.slice(i);
      else q = q.slice(0, i) + q.slice(i, i + len * 5) + q.slice(i);
    }
    return { kind: 'mutated', payload: { query: q, variables: doc.variables } };
  });

const garbage = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.array(fc.constantFrom(...ALPHABET), { maxLength: 200 }).map((w) => w.join('')))
  .map((query) => ({ kind: 'garbage', payload: { query } }));

// Nesting far past every cap, in each place a document or its values can nest.
const deep = fc.tuple(fc.constantFrom('selections', 'list-literal', 'object-literal', 'not-chain', 'not-variable', 'fragment-chain',
  'inline-fragments', 'variable-list'), fc.integer({ min: 1, max: 30_000 })).map(([shape, n]) => {
  const rep = (s: string, k: number): string => s.repeat(k);
  switch (shape) {
    case 'selections': return { kind: `deep ${shape} ${n}`, payload: { query: `{ article { ${rep('author { articles { ', n >> 1)}id${rep(' } }', n >> 1)} } }` } };
    case 'list-literal': return { kind: `deep ${shape} ${n}`, payload: { query: `{ article(where: {id: {_in: ${rep('[', n)}1${rep(']', n)}}}) { id } }` } };
    case 'object-literal': return { kind: `deep ${shape} ${n}`, payload: { query: `{ article(where: ${rep('{_and: {', n)}id: {_eq: 1}${rep('}}', n)}) { id } }` } };
    case 'not-chain': return { kind: `deep ${shape} ${n}`, payload: { query: `{ article(where: ${rep('{_not: ', n)}{id: {_eq: 1}}${rep('}', n)}) { id } }` } };
    case 'not-variable': {
      let w: unknown = { id: { _eq: 1 } };
      for (let i = 0; i < n; i++) w = { _not: w };
      return { kind: `deep ${shape} ${n}`, payload: { query: 'query($w: article_bool_exp) { article(where: $w) { id } }', variables: { w } } };
    }
    case 'fragment-chain': {
      const k = Math.min(n, 3000);
      const frags = Array.from({ length: k }, (_, i) => `fragment F${i} on article { id ${i + 1 < k ? `...F${i + 1}` : ''} }`).join('\n');
      return { kind: `deep ${shape} ${k}`, payload: { query: `{ article { ...F0 } }\n${frags}` } };
    }
    case 'inline-fragments': return { kind: `deep ${shape} ${n}`, payload: { query: `{ article { ${rep('... on article { ', n)}id${rep(' }', n)} } }` } };
    case 'variable-list': {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return { kind: `deep ${shape} ${n}`, payload: { query: 'query($l: [Int!]) { article(where: {id: {_in: $l}}) { id } }', variables: { l: v } } };
    }
  }
});

// Many aliases, fields, arguments or directives in one flat document.
const wide = fc.tuple(fc.constantFrom('aliases', 'nested-aliases', 'arguments', 'directives', 'variables', 'fragments'), fc.integer({ min: 1, max: 20_000 }))
  .map(([shape, n]) => {
    const list = (f: (i: number) => string, k = n): string => Array.from({ length: k }, (_, i) => f(i)).join(' ');
    switch (shape) {
      case 'aliases': return { kind: `wide ${shape} ${n}`, payload: { query: `{ ${list((i) => `a${i}: article { id }`)} }` } };
      case 'nested-aliases': return { kind: `wide ${shape} ${n}`, payload: { query: `{ article { ${list((i) => `a${i}: author { id }`)} } }` } };
      case 'arguments': return { kind: `wide ${shape} ${n}`, payload: { query: `{ article(${list((i) => `limit: ${i}`)}) { id } }` } };
      case 'directives': return { kind: `wide ${shape} ${n}`, payload: { query: `{ article { id ${list(() => '@include(if: true)')} } }` } };
      case 'variables': return { kind: `wide ${shape} ${n}`, payload: { query: `query(${list((i) => `$v${i}: Int`)}) { article { id } }` } };
      case 'fragments': return { kind: `wide ${shape} ${n}`, payload: { query: `{ article { ...F0 } } ${list((i) => `fragment F${i} on article { id }`, Math.min(n, 5000))}` } };
    }
  });

// Fragments that double at each level (issue 15): tiny text, exponential expansion.
const bomb = fc.integer({ min: 2, max: 40 }).map((levels) => {
  const frags = [`fragment F0 on article { id title }`];
  for (let i = 1; i <= levels; i++) frags.push(`fragment F${i} on article { ...F${i - 1} a: author { articles { ...F${i - 1} } } }`);
  return { kind: `fragment bomb ${levels}`, payload: { query: `{ article { ...F${levels} } }\n${frags.join('\n')}` } };
});

// Declared variables given values of every wrong kind (and prototype keys).
const badVariables = fc.tuple(fc.oneof(fc.jsonValue(), fc.anything(), fc.constantFrom<unknown>({ __proto__: { id: { _eq: 1 } } },
  JSON.parse('{"__proto__": {"id": {"_eq": 1}}}'), JSON.parse('{"constructor": {"prototype": {"x": 1}}}'), 1e309, -0, '9'.repeat(400), [null], { toString: 1 })),
fc.constantFrom('w', 'l', 's', 'o', 'n')).map(([value, name]) => ({
  kind: 'bad variables',
  payload: {
    query: 'query($w: article_bool_exp, $l: Int, $s: String!, $o: [article_order_by!], $n: [Int!]!) { article(where: $w, limit: $l, order_by: $o) { id title } a2: article(where: {title: {_eq: $s}, id: {_in: $n}}) { id } }',
    variables: { w: {}, l: 1, s: 'x', o: [], n: [1], [name]: value },
  },
}));

// Whole bodies of the wrong shape: not an object, a batch, fields of the wrong types.
const shapes = fc.oneof(
  fc.anything().map((payload) => ({ kind: 'body anything', payload })),
  fc.record({ query: fc.anything(), variables: fc.anything(), operationName: fc.anything() }, { requiredKeys: [] }).map((payload) => ({ kind: 'body fields', payload })),
  fc.array(fc.oneof(valid.map((d) => d as unknown), fc.anything()), { maxLength: 30 }).map((payload) => ({ kind: 'batch', payload })),
  valid.chain((d) => fc.string().map((operationName) => ({ kind: 'operation name', payload: { ...d, operationName } }))),
);

const payloads = fc.oneof(
  { weight: 6, arbitrary: mutated }, { weight: 2, arbitrary: garbage }, { weight: 2, arbitrary: deep }, { weight: 2, arbitrary: wide },
  { weight: 1, arbitrary: bomb }, { weight: 3, arbitrary: badVariables }, { weight: 3, arbitrary: shapes },
);

const headers = fc.record({
  role: fc.constantFrom('admin', 'user', 'member', 'anon', 'nope', '', 'USER', 'user ', 'x'.repeat(5000)),
  session: fc.oneof(fc.constantFrom('1', '13', '-1', 'abc', '', '1e309', '9'.repeat(40), '1; DROP TABLE article', '{1,2}', '\u00e9'), fc.string({ maxLength: 20 })),
}).map(({ role, session }) => {
  const h: Record<string, string> = { 'content-type': 'application/json', 'x-svc-role': role };
  // Header values must be Latin-1 for fetch; anything else is dropped by the client, not the server.
  if (/^[\x20-\x7e]*$/.test(session)) { h['x-svc-user-id'] = session; h['x-svc-org-id'] = session; }
  return h;
});

// Text of a body: JSON of the payload, or (sometimes) the payload's query cut mid-JSON.
const bodyText = fc.tuple(payloads, fc.nat(), fc.integer({ min: 0, max: 9 })).map(([p, cut, how]) => {
  let text: string;
  try {
    text = JSON.stringify(p.payload) ?? 'undefined';
  } catch {
    text = String(p.payload);
  }
  if (how === 0) text = text.slice(0, cut % (text.length + 1));
  return { kind: how === 0 ? `${p.kind} (cut)` : p.kind, text };
});

/** A hostile request to one of the GraphQL routes. */
export const hostile: fc.Arbitrary<Hostile> = fc.tuple(bodyText, headers, fc.constantFrom('/v1/graphql', '/v1/graphql', '/v1/graphql', '/v1alpha1/graphql', '/v1/graphql/explain'))
  .map(([b, h, path]): Hostile => {
    if (path === '/v1/graphql/explain') {
      // The explain route takes { query: <request>, user: <session> }.
      return { path, body: `{"query":${b.text},"user":{"x-svc-role":${JSON.stringify(h['x-svc-role'])}}}`, headers: h, kind: b.kind };
    }
    return { path: path as Hostile['path'], body: b.text, headers: h, kind: b.kind };
  });
