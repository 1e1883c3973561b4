// Session values reach permissions typed by the column they are compared with: integer, numeric,
// uuid columns; `_in` from a JSON-array string or a Postgres array literal (also from a JWT claim
// list). A value that does not parse is a data-exception in PostgreSQL's wording
// (reference/errors.md), never a postgres-error or an internal error. Also: disabled API groups.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from './helpers.js';

const ARTICLES = '{ article(order_by: {id: asc}) { id } }';
const AUTHORS = '{ author(order_by: {id: asc}) { id } }';
const SECRET = 'session-values-secret-long-enough-0123456789';

let fx: AuthFixture;
let srv: Served;
let jwtSrv: Served;
let jwt: JwtAuthenticator;

beforeAll(async () => {
  fx = await authFixture('authsess');
  srv = await fx.serve();
  jwt = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: SECRET })]);
  jwtSrv = await fx.serve({ adminSecret: 'adm', authenticators: [jwt] });
});
afterAll(async () => {
  jwt?.close();
  await fx?.close();
});

const as = (role: string, vars: Record<string, string>) => (q: string): Promise<any> => srv.gql(q, { 'x-svc-role': role, ...vars });
const ids = (body: any, root = 'article'): unknown => (body.data ? body.data[root].map((r: { id: number }) => r.id) : body);

describe('typed session values', () => {
  it('compares an integer column with an integer, a numeric one with a number, a uuid one with a uuid', async () => {
    expect(ids(await as('user', { 'x-svc-user-id': '2' })(AUTHORS), 'author')).toEqual([2]);
    expect(ids(await as('rated', { 'x-svc-min-rating': '4.5' })(ARTICLES))).toEqual([1, 3]);
    expect(ids(await as('org', { 'x-svc-org-id': '0B9B4F5E-6A3F-4A8E-9D1E-1C2B3A4D5E6F' })(AUTHORS), 'author')).toEqual([1]);
  });

  it('answers a value that does not parse as its column type with data-exception', async () => {
    const dx = (message: string): unknown => gqlError(message, 'data-exception');
    expect(await as('user', { 'x-svc-user-id': 'abc' })(AUTHORS)).toEqual(dx('invalid input syntax for type integer: "abc"'));
    expect(await as('user', { 'x-svc-user-id': '1.0' })(AUTHORS)).toEqual(dx('invalid input syntax for type integer: "1.0"'));
    expect(await as('user', { 'x-svc-user-id': '99999999999' })(AUTHORS)).toEqual(dx('value "99999999999" is out of range for type integer'));
    expect(await as('rated', { 'x-svc-min-rating': 'high' })(ARTICLES)).toEqual(dx('invalid input syntax for type numeric: "high"'));
    expect(await as('org', { 'x-svc-org-id': 'nope' })(AUTHORS)).toEqual(dx('invalid input syntax for type uuid: "nope"'));
  });

  it('gives `_in` a list from a JSON-array string or an array literal, and refuses what is not a list of integers', async () => {
    const lister = (v: string): Promise<any> => as('lister', { 'x-svc-author-ids': v })(ARTICLES);
    expect(ids(await lister('[1,2]'))).toEqual([1, 2, 3]);
    expect(ids(await lister('["1", "3"]'))).toEqual([1, 2, 4]);
    expect(ids(await lister('{2,3}'))).toEqual([3, 4]);
    expect(ids(await lister('[]'))).toEqual([]);
    const dx = (message: string): unknown => gqlError(message, 'data-exception');
    expect(await lister('[1,"x"]')).toEqual(dx('invalid input syntax for type integer: "x"'));
    expect(await lister('[1.5]')).toEqual(dx('invalid input syntax for type integer: "1.5"'));
    expect(await lister('abc')).toEqual(dx('malformed array literal: "abc"'));
    expect(await lister('[1,')).toEqual(dx('invalid array value in session variable: [1,'));
    expect(await lister('[[1]]')).toEqual(dx('invalid array value in session variable: [[1]]'));
    expect(await lister('[{"a":1}]')).toEqual(dx('invalid array value in session variable: [{"a":1}]'));
  });

  it('reports a permission that needs a session variable the request lacks', async () => {
    expect(await as('user', {})(AUTHORS)).toEqual(gqlError('missing session variable: "x-svc-user-id"', 'not-found'));
  });

  it('takes the values from JWT claims the same way, a claim list becoming a JSON array', async () => {
    const token = await new SignJWT({
      'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['lister', 'user'], 'x-svc-default-role': 'lister', 'x-svc-author-ids': [1, 3], 'x-svc-user-id': 'x1' },
    }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1m').sign(new TextEncoder().encode(SECRET));
    expect(ids(await jwtSrv.gql(ARTICLES, { authorization: `Bearer ${token}` }))).toEqual([1, 2, 4]);
    expect(await jwtSrv.gql(AUTHORS, { authorization: `Bearer ${token}`, 'x-svc-role': 'user' }))
      .toEqual(gqlError('invalid input syntax for type integer: "x1"', 'data-exception'));
  });
});

describe('SVC_GRAPHQL_ENABLED_APIS', () => {
  it('answers 404 on the paths of a disabled group, and serves the enabled ones', async () => {
    const metadataOnly = await fx.serve({ enabledApis: ['metadata'] });
    const notFound = { path: '$', error: 'resource does not exist', code: 'not-found' };
    expect(await metadataOnly.post({ query: AUTHORS }, {})).toEqual(expect.objectContaining({ status: 404, body: notFound }));
    expect((await metadataOnly.post({ query: AUTHORS }, {}, '/v1alpha1/graphql')).status).toBe(404);
    expect((await metadataOnly.post({ type: 'export_metadata', args: {} }, {}, '/v1/metadata')).status).not.toBe(404);
    const graphqlOnly = await fx.serve({ enabledApis: ['graphql'] });
    expect(ids((await graphqlOnly.post({ query: AUTHORS }, {})).body, 'author')).toEqual([1, 2, 3]);
    for (const path of ['/v1/metadata', '/v1/query', '/v2/query']) {
      expect(await graphqlOnly.post({ type: 'export_metadata', args: {} }, {}, path)).toEqual(expect.objectContaining({ status: 404, body: notFound }));
    }
    expect((await fetch(`${graphqlOnly.url}/healthz`)).status).toBe(200);
  });
});
