// A remote's interfaces and unions are checked as Hasura checks them while building the remote's
// parsers (GraphQL/Schema/Remote.hs; tests-py test_schema_stitching.py TestRemoteSchemaBasic
// test_add_remote_schema_with_interface_err_* and _with_union_err_*): add_remote_schema answers
// 400 remote-schema-error at $.args with Hasura's words and adds nothing. The remote here answers
// its real introspection with one defect put in, as Hasura's graphql_server.py does.

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, graphql } from 'graphql';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const SDL = `
  interface Character { id: ID!  name: String! }
  type Droid implements Character { id: ID!  name: String!  primaryFunction: String }
  type Human implements Character { id: ID!  name: String!  homePlanet: String }
  union SearchResult = Human | Droid
  type Query { hero(episode: Int!): Character  search(episode: Int!): SearchResult }`;

type T = { kind: string; name: string; fields?: any[]; interfaces?: any[]; possibleTypes?: any[] };
const intArg = (name: string, type = 'Int') => ({ name, description: null, type: { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: type, ofType: null } }, defaultValue: null });
const field = (t: T, name: string) => t.fields!.find((f) => f.name === name);

const DEFECTS: Record<string, (types: T[]) => void> = {
  '/empty-interface': (ts) => { for (const t of ts) if (t.kind === 'INTERFACE') t.fields = []; },
  '/unknown-interface': (ts) => { ts.find((t) => t.name === 'Droid')!.interfaces![0].name = 'Ghost'; },
  '/missing-field': (ts) => { const d = ts.find((t) => t.name === 'Droid')!; d.fields = d.fields!.filter((f) => f.name !== 'id'); },
  '/wrong-field-type': (ts) => { field(ts.find((t) => t.name === 'Droid')!, 'id').type.ofType.name = 'String'; },
  '/nullable-field': (ts) => { field(ts.find((t) => t.name === 'Human')!, 'name').type = { kind: 'SCALAR', name: 'String', ofType: null }; },
  '/missing-arg': (ts) => { field(ts.find((t) => t.name === 'Character')!, 'id').args.push(intArg('since')); },
  '/wrong-arg-type': (ts) => {
    field(ts.find((t) => t.name === 'Character')!, 'id').args.push(intArg('since'));
    field(ts.find((t) => t.name === 'Droid')!, 'id').args.push(intArg('since'));
    field(ts.find((t) => t.name === 'Human')!, 'id').args.push(intArg('since', 'String'));
  },
  '/extra-required-arg': (ts) => { field(ts.find((t) => t.name === 'Droid')!, 'id').args.push(intArg('extra')); },
  '/extra-optional-arg': (ts) => { field(ts.find((t) => t.name === 'Droid')!, 'id').args.push({ ...intArg('extra'), type: { kind: 'SCALAR', name: 'Int', ofType: null } }); },
  '/empty-union': (ts) => { ts.find((t) => t.kind === 'UNION')!.possibleTypes = []; },
  '/unknown-member': (ts) => { ts.find((t) => t.kind === 'UNION')!.possibleTypes!.forEach((p, i) => { p.name = `Unknown${i}`; }); },
  '/interface-member': (ts) => { for (const p of ts.find((t) => t.kind === 'UNION')!.possibleTypes!) p.name = 'Character'; },
  '/wrapped-member': (ts) => { const u = ts.find((t) => t.kind === 'UNION')!; u.possibleTypes = u.possibleTypes!.map((p) => ({ kind: 'NON_NULL', name: null, ofType: p })); },
  '/sound': () => {},
};

describe('a remote\'s interfaces and unions are checked in Hasura\'s words', () => {
  let server: ServedDatabase;
  let remote: Server;
  let base = '';
  const schema = buildSchema(SDL);

  beforeAll(async () => {
    remote = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string };
          const out = await graphql({ schema, source: body.query }) as any;
          const types = out.data?.__schema?.types as T[] | undefined;
          if (types) DEFECTS[req.url ?? '']?.(types);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
        })();
      });
    });
    await new Promise<void>((ok) => remote.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(remote.address() as { port: number }).port}`;
    server = await serveDatabase('fidrsintro', 'SELECT 1;');
  });
  afterAll(async () => {
    await server?.close();
    remote?.closeAllConnections();
    await new Promise((ok) => remote?.close(ok));
  });

  const add = (path: string) => server.metadata('add_remote_schema', { name: `r${path.replace(/\W/g, '_')}`, definition: { url: base + path } });
  const refused = (error: string) => ({ status: 400, body: { path: '$.args', code: 'remote-schema-error', error } });

  it('refuses an interface without fields', async () => {
    expect(await add('/empty-interface')).toEqual(refused("List of fields cannot be empty for interface 'Character'"));
  });
  it('refuses an object claiming an interface the remote lacks', async () => {
    expect(await add('/unknown-interface')).toEqual(refused("Could not find interface 'Ghost' implemented by Object type 'Droid'"));
  });
  it('refuses an object without a field of its interface, or with a field of another type', async () => {
    expect(await add('/missing-field')).toEqual(refused(`Interface field 'Character'."id" expected, but 'Droid' does not provide it`));
    expect(await add('/wrong-field-type')).toEqual(refused(`The type of Object field 'Droid'."id" (String!) is not the same type/sub type of Interface field 'Character'."id" (ID!)`));
    expect(await add('/nullable-field')).toEqual(refused(`The type of Object field 'Human'."name" (String) is not the same type/sub type of Interface field 'Character'."name" (String!)`));
  });
  it('refuses an object field whose arguments do not fit the interface field\'s', async () => {
    expect(await add('/missing-arg')).toEqual(refused(`Interface field argument 'Character'."id"("since":) required, but Object field 'Droid'."id" does not provide it`));
    expect(await add('/wrong-arg-type')).toEqual(refused(`Interface field argument 'Character'."id"("since":) expects type Int!, but 'Human'."id"("since":) has type String!`));
    expect(await add('/extra-required-arg')).toEqual(refused(`Object field argument 'Droid'."id"("extra":) is of required type Int!, but is not provided by Interface field 'Character'."id"`));
  });
  it('refuses a union without members, with unknown members, with an interface or a wrapped type as member', async () => {
    expect(await add('/empty-union')).toEqual(refused("List of member types cannot be empty for union type 'SearchResult'"));
    expect(await add('/unknown-member')).toEqual(refused("Could not find type 'Unknown0', which is defined as a member type of Union 'SearchResult'"));
    expect(await add('/interface-member')).toEqual(refused("Union type 'SearchResult' can only include object types. It cannot include 'Character'"));
    const wrapped = await add('/wrapped-member');
    expect(wrapped.status).toBe(400);
    expect(wrapped.body.error).toMatch(/^Error in \$\.types\[\d+\]\.possibleTypes\[0\]\.name: parsing Name failed, expected String, but encountered Null$/);
  });
  it('adds nothing it refused, and accepts a sound remote or an extra optional argument', async () => {
    const exported = (await server.metadata('export_metadata', {})).body;
    expect(exported.remote_schemas ?? []).toEqual([]);
    expect((await add('/extra-optional-arg')).status).toBe(200);
    expect((await add('/sound')).status).toBe(400); // its root fields clash with the one just added
    expect((await server.metadata('remove_remote_schema', { name: 'r_extra_optional_arg' })).status).toBe(200);
    expect(await add('/sound')).toEqual({ status: 200, body: { message: 'success' } });
  });
});
