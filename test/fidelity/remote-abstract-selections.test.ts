// Selections under a remote's interface or union are validated before the remote is called, as
// Hasura's parsers do (tests-py queries/remote_schemas/validation/field_validation.yaml,
// field_prefix_validation.yaml): the fields beside the fragments against the abstract type, the
// fields of a fragment against the type it names; an unknown field is "field \"x\" not found in
// type: 'T'" (validation-failed) at the field, the fragment left out of the path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  interface Character { id: ID!  name: String! }
  type Droid implements Character { id: ID!  name: String!  primaryFunction: String }
  type Human implements Character { id: ID!  name: String!  homePlanet: String }
  union SearchResult = Human | Droid
  type Query { hero(episode: Int!): Character  search(episode: Int!): SearchResult }`;
const R2 = { __typename: 'Droid', id: 1, name: 'R2-D2', primaryFunction: 'Astromech' };
const LUKE = { __typename: 'Human', id: 2, name: 'Luke', homePlanet: 'Tatooine' };
const ROOT = { hero: ({ episode }: { episode: number }) => (episode === 4 ? R2 : LUKE), search: ({ episode }: { episode: number }) => (episode === 4 ? R2 : LUKE) };

describe('selections under a remote interface or union are validated per type', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const notFound = (path: string, field: string, type: string) => ({ errors: [{ message: `field "${field}" not found in type: '${type}'`, extensions: { path, code: 'validation-failed' } }] });

  beforeAll(async () => {
    remote = await startRemote(SDL, ROOT);
    server = await serveDatabase('fidrsabs', 'SELECT 1;', { metadata: [
      { type: 'add_remote_schema', args: { name: 'sw', definition: { url: remote.url } } },
      { type: 'add_remote_schema', args: { name: 'sw2', definition: { url: remote.url, customization: {
        root_fields_namespace: 'more', type_names: { prefix: 'X' }, field_names: ['Character', 'Droid', 'Human'].map((t) => ({ parent_type: t, prefix: 'foo_' })) } } } },
    ] });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('checks a fragment\'s fields against the object type it names', async () => {
    const calls = remote.calls().length;
    expect(await server.gql('{ hero(episode: 4) { id ... on Droid { primaryFunction bogus } } }'))
      .toEqual(notFound('$.selectionSet.hero.selectionSet.bogus', 'bogus', 'Droid'));
    expect(await server.gql('{ search(episode: 5) { __typename ... on Droid { id } ... on Human { name bogus } } }'))
      .toEqual(notFound('$.selectionSet.search.selectionSet.bogus', 'bogus', 'Human'));
    expect(remote.calls().length).toBe(calls);
  });

  it('checks the fields beside the fragments against the interface, or the union', async () => {
    expect(await server.gql('{ hero(episode: 4) { id primaryFunction } }'))
      .toEqual(notFound('$.selectionSet.hero.selectionSet.primaryFunction', 'primaryFunction', 'Character'));
    expect(await server.gql('{ search(episode: 4) { __typename id } }'))
      .toEqual(notFound('$.selectionSet.search.selectionSet.id', 'id', 'SearchResult'));
    expect(await server.gql('{ more { hero(episode: 4) { id } } }'))
      .toEqual(notFound('$.selectionSet.more.selectionSet.hero.selectionSet.id', 'id', 'XCharacter'));
  });

  it('checks named fragments on the interface and on a possible type', async () => {
    expect(await server.gql('{ hero(episode: 4) { ...c } } fragment c on Character { id ...d } fragment d on Droid { nope }'))
      .toEqual(notFound('$.selectionSet.hero.selectionSet.nope', 'nope', 'Droid'));
  });

  it('still answers sound selections', async () => {
    expect(await server.gql('{ hero(episode: 4) { __typename id ... on Droid { primaryFunction } ... on Human { homePlanet } } search(episode: 5) { ... on Human { name } } }'))
      .toEqual({ data: { hero: { __typename: 'Droid', id: '1', primaryFunction: 'Astromech' }, search: { name: 'Luke' } } });
    expect(await server.gql('{ more { hero(episode: 4) { foo_id ... on XDroid { foo_primaryFunction } } } }'))
      .toEqual({ data: { more: { hero: { foo_id: '1', foo_primaryFunction: 'Astromech' } } } });
  });
});
