// A remote schema's type_names mapping renames a built-in scalar too (Hasura's getCustomizer maps
// every type the mapping names; only the prefix and suffix leave built-in scalars alone): the
// remote's Int fields and arguments become MyInt for the client, variables are declared with the
// new name, and calls go out in the remote's (tests-py queries/remote_schemas/validation/
// customize_all_the_things.yaml and type_prefix_validation.yaml: `query Hero($ep: MyInt!)`).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('a built-in scalar renamed by type_names.mapping', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote('type Query { hero(episode: Int!): Hero } type Hero { id: Int!  name: String }',
      { hero: ({ episode }: { episode: number }) => ({ id: episode, name: 'R2-D2' }) });
    server = await serveDatabase('fidrsscalar', 'SELECT 1;', { metadata: [
      { type: 'add_remote_schema', args: { name: 'sw', definition: { url: remote.url, customization: { type_names: { prefix: 'Foo', mapping: { Int: 'MyInt' } } } } } },
    ] });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('is a scalar of the new name in the schema', async () => {
    expect(await server.gql('{ __type(name: "MyInt") { kind name } hero: __type(name: "FooHero") { fields { name type { ofType { name } } } } }'))
      .toEqual({ data: { __type: { kind: 'SCALAR', name: 'MyInt' }, hero: { fields: [{ name: 'id', type: { ofType: { name: 'MyInt' } } }, { name: 'name', type: { ofType: null } }] } } });
  });

  it('takes variables declared with the new name, and calls the remote in its own', async () => {
    expect(await server.gql('query Hero($ep: MyInt!) { hero(episode: $ep) { id name } }', { ep: 4 })).toEqual({ data: { hero: { id: 4, name: 'R2-D2' } } });
    expect(remote.calls().at(-1)!.body.query).toContain('$ep: Int!');
  });

  it('refuses a variable declared with the remote\'s name', async () => {
    expect(await server.gql('query Hero($ep: Int!) { hero(episode: $ep) { id } }', { ep: 4 })).toEqual({ errors: [{
      message: 'variable "ep" is declared as Int!, but used where MyInt! is expected', extensions: { path: '$.selectionSet.hero.args.episode', code: 'validation-failed' } }] });
  });
});
