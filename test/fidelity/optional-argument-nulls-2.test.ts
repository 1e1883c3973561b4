// More places Hasura reads with `fieldOptional` over a parser that takes no null, so that an
// explicit null (a literal, or a variable sent null) reaches that parser and is refused
// (Parser/Internal/Input.hs, Note [Optional fields and nullability]): the operators of an
// aggregate order_by, `max`, `sum`, ... (Schema/OrderBy.hs orderByAggregation, parseOperator:
// `P.object`; `count` reads the nullable `order_by` enum and takes a null), an on_conflict's
// `where` (Schema/Mutation.hs conflictObjectParser: the boolean expression's `P.object`), and the
// columns of `_delete_elem` and `_delete_at_path` (Backends/Postgres/Instances/Schema.hs
// deleteElemOp, deleteAtPathOp: the Int column parser without nullability, and `P.list`;
// `_delete_key` reads a nullable text), the fields of a `_cast` object (castExp: a comparison
// expression's `P.object`) and the `nband` of `_st_intersects_geom_nband` (the Int column parser;
// `use_spheroid` of `_st_d_within` reads a nullable Boolean and takes a null, handed to PostGIS).
// A streaming subscription's cursor `ordering` too (Schema/SubscriptionStream.hs cursorOrderingArg:
// the `cursor_ordering` enum). Before, Kiln read each such null as "left out". And a function's or
// computed field's `args`, which Hasura reads with `P.field` over its object (functionArgs), is
// required even when every argument has a default: Kiln made it optional then, taking a null.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

describe('explicit nulls refused by the parsers of order_by aggregates, on_conflict and jsonb deletes', () => {
  let server: ServedDatabase;
  const gql = (query: string, variables?: Record<string, unknown>) => server.gql(query, variables);
  const refused = (message: string, path: string) => ({ errors: [{ message, extensions: { path, code: 'validation-failed' } }] });
  const AGG = '$.selectionSet.shelf.args.order_by[0].books_aggregate';

  beforeAll(async () => {
    server = await serveDatabase('fidargnull2', `CREATE TABLE shelf (id int PRIMARY KEY, label text, meta jsonb);
      INSERT INTO shelf VALUES (1, 'a', '[1, 2]'), (2, 'b', '{"k": 1}');
      CREATE TABLE book (id int PRIMARY KEY, shelf_id int REFERENCES shelf(id), pages int);
      INSERT INTO book VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5);
      CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS postgis_raster;
      CREATE TABLE site (id int PRIMARY KEY, spot geography(Point), tile raster);
      INSERT INTO site VALUES (1, 'SRID=4326;POINT(0 0)', NULL);
      CREATE FUNCTION shelves_from(first_id int DEFAULT 1) RETURNS SETOF shelf AS $$ SELECT * FROM shelf WHERE id >= first_id $$ LANGUAGE sql STABLE;
      CREATE FUNCTION shelf_weight(s shelf, factor int DEFAULT 1) RETURNS int AS $$ SELECT s.id * factor $$ LANGUAGE sql STABLE;`, {
      track: ['shelf', 'book', 'site'], metadata: [
        { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'shelf_id' } } } },
        { type: 'pg_track_function', args: { function: 'shelves_from' } },
        { type: 'pg_add_computed_field', args: { table: 'shelf', name: 'weight', definition: { function: 'shelf_weight' } } }] });
  }, 60_000);
  afterAll(() => server?.close());

  it('refuses a null operator of an aggregate order_by, literal or variable, and still takes a null count', async () => {
    expect(await gql('{ shelf(order_by: {books_aggregate: {max: null}}) { id } }'))
      .toEqual(refused('expected an object for type "book_max_order_by", but found null', `${AGG}.max`));
    const q = 'query Q($s: book_sum_order_by) { shelf(order_by: [{books_aggregate: {sum: $s}}]) { id } }';
    expect(await gql(q, { s: null })).toEqual(refused('expected an object for type "book_sum_order_by", but found null', `${AGG}.sum`));
    expect(await gql('query Q($o: [shelf_order_by!]) { shelf(order_by: $o) { id } }', { o: [{ books_aggregate: { avg: null } }] }))
      .toEqual(refused('expected an object for type "book_avg_order_by", but found null', `${AGG}.avg`));
    expect(await gql(q, { s: { pages: 'asc' } })).toEqual({ data: { shelf: [{ id: 2 }, { id: 1 }] } });
    const counted = await gql('{ shelf(order_by: {books_aggregate: {count: null}}) { id } }');
    expect(counted.data.shelf.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
  });

  it('refuses a null where in on_conflict, literal or variable, and changes nothing', async () => {
    const conflict = '$.selectionSet.insert_shelf.args.on_conflict.where';
    expect(await gql('mutation { insert_shelf(objects: [{id: 1, label: "z"}], on_conflict: {constraint: shelf_pkey, update_columns: [label], where: null}) { affected_rows } }'))
      .toEqual(refused('expected an object for type "shelf_bool_exp", but found null', conflict));
    const q = 'mutation M($w: shelf_bool_exp) { insert_shelf(objects: [{id: 1, label: "z"}], on_conflict: {constraint: shelf_pkey, update_columns: [label], where: $w}) { affected_rows } }';
    expect(await gql(q, { w: null })).toEqual(refused('expected an object for type "shelf_bool_exp", but found null', conflict));
    expect(await gql('{ shelf_by_pk(id: 1) { label } }')).toEqual({ data: { shelf_by_pk: { label: 'a' } } });
    expect(await gql(q, { w: { id: { _eq: 1 } } })).toEqual({ data: { insert_shelf: { affected_rows: 1 } } });
  });

  it('refuses a null column of _delete_elem (the Int column parser) and _delete_at_path (a list), not of _delete_key', async () => {
    const at = (op: string) => `$.selectionSet.update_shelf.args.${op}.meta`;
    expect(await gql('mutation { update_shelf(where: {id: {_eq: 1}}, _delete_elem: {meta: null}) { affected_rows } }'))
      .toEqual(refused('unexpected null value for type "Int"', at('_delete_elem')));
    expect(await gql('mutation M($e: Int) { update_shelf(where: {id: {_eq: 1}}, _delete_elem: {meta: $e}) { affected_rows } }', { e: null }))
      .toEqual(refused('unexpected null value for type "Int"', at('_delete_elem')));
    expect(await gql('mutation M($e: shelf_delete_elem_input) { update_shelf(where: {id: {_eq: 1}}, _delete_elem: $e) { affected_rows } }', { e: { meta: null } }))
      .toEqual(refused('unexpected null value for type "Int"', at('_delete_elem')));
    expect(await gql('mutation { update_shelf(where: {id: {_eq: 2}}, _delete_at_path: {meta: null}) { affected_rows } }'))
      .toEqual(refused('expected a list, but found null', at('_delete_at_path')));
    expect(await gql('mutation M($p: shelf_delete_at_path_input) { update_shelf(where: {id: {_eq: 2}}, _delete_at_path: $p) { affected_rows } }', { p: { meta: null } }))
      .toEqual(refused('expected a list, but found null', at('_delete_at_path')));
    expect(await gql('{ shelf(order_by: {id: asc}) { meta } }')).toEqual({ data: { shelf: [{ meta: [1, 2] }, { meta: { k: 1 } }] } });
    expect(await gql('mutation { update_shelf(where: {id: {_eq: 2}}, _delete_key: {meta: null}) { affected_rows } }'))
      .toEqual({ data: { update_shelf: { affected_rows: 1 } } });
  });

  it('refuses a null field of a _cast object and a null nband, and still takes a null use_spheroid', async () => {
    const where = '$.selectionSet.site.args.where';
    expect(await gql('{ site(where: {spot: {_cast: {geometry: null}}}) { id } }'))
      .toEqual(refused('expected an object for type "geometry_comparison_exp", but found null', `${where}.spot._cast.geometry`));
    expect(await gql('query Q($g: geometry_comparison_exp) { site(where: {spot: {_cast: {geometry: $g}}}) { id } }', { g: null }))
      .toEqual(refused('expected an object for type "geometry_comparison_exp", but found null', `${where}.spot._cast.geometry`));
    expect(await gql('{ site(where: {spot: {_cast: {geometry: {_is_null: false}}}}) { id } }')).toEqual({ data: { site: [{ id: 1 }] } });
    const nband = 'query Q($n: Int) { site(where: {tile: {_st_intersects_geom_nband: {geommin: {type: "Point", coordinates: [0, 0]}, nband: $n}}}) { id } }';
    expect(await gql(nband, { n: null })).toEqual(refused('unexpected null value for type "Int"', `${where}.tile._st_intersects_geom_nband.nband`));
    expect(await gql('{ site(where: {tile: {_st_intersects_geom_nband: {geommin: {type: "Point", coordinates: [0, 0]}, nband: null}}}) { id } }'))
      .toEqual(refused('unexpected null value for type "Int"', `${where}.tile._st_intersects_geom_nband.nband`));
    expect(await gql(nband, { n: 1 })).toEqual({ data: { site: [] } });
    expect(await gql('{ site(where: {spot: {_st_d_within: {distance: 10, from: {type: "Point", coordinates: [0, 0]}, use_spheroid: null}}}) { id } }'))
      .toEqual({ data: { site: [] } });
  });

  it('refuses a null ordering in a stream cursor, literal or variable, and streams with it left out', async () => {
    const c = await Client.open(`ws://127.0.0.1:${server.port}/v1/graphql`, 'graphql-transport-ws');
    try {
      await c.init({});
      const at = '$.selectionSet.shelf_stream.args.cursor[0].ordering';
      const nulled = [{ message: 'expected an enum value for type "cursor_ordering", but found null', extensions: { path: at, code: 'validation-failed' } }];
      c.send({ type: 'subscribe', id: 'lit', payload: { query: 'subscription { shelf_stream(batch_size: 5, cursor: {initial_value: {id: 0}, ordering: null}) { id } }' } });
      expect(await c.next((m) => m.id === 'lit')).toEqual({ type: 'error', id: 'lit', payload: nulled });
      c.send({ type: 'subscribe', id: 'var', payload: { query: 'subscription S($o: cursor_ordering) { shelf_stream(batch_size: 5, cursor: {initial_value: {id: 0}, ordering: $o}) { id } }', variables: { o: null } } });
      expect(await c.next((m) => m.id === 'var')).toEqual({ type: 'error', id: 'var', payload: nulled });
      c.send({ type: 'subscribe', id: 'ok', payload: { query: 'subscription { shelf_stream(batch_size: 5, cursor: {initial_value: {id: 0}}) { id } }' } });
      expect(await c.next((m) => m.id === 'ok')).toEqual({ type: 'next', id: 'ok', payload: { data: { shelf_stream: [{ id: 1 }, { id: 2 }] } } });
    } finally {
      c.close();
    }
  });

  it('requires args of a function and a computed field even when every argument has a default: no null, not left out', async () => {
    expect(await gql('{ shelves_from(args: null) { id } }'))
      .toEqual(refused('expected an object for type "shelves_from_args", but found null', '$.selectionSet.shelves_from.args.args'));
    expect(await gql('{ shelves_from { id } }')).toEqual(refused('missing required field "args"', '$.selectionSet.shelves_from.args.args'));
    expect(await gql('query Q($a: shelves_from_args!) { shelves_from(args: $a) { id } }', { a: null }))
      .toEqual(refused('unexpected null value for type "shelves_from_args"', '$.selectionSet.shelves_from.args.args'));
    expect(await gql('{ shelf(order_by: {id: asc}) { weight(args: null) } }'))
      .toEqual(refused('expected an object for type "shelf_weight_args", but found null', '$.selectionSet.shelf.selectionSet.weight.args.args'));
    expect(await gql('{ shelves_from(args: {}, order_by: {id: asc}) { id weight(args: {}) triple: weight(args: {factor: 3}) } }'))
      .toEqual({ data: { shelves_from: [{ id: 1, weight: 1, triple: 3 }, { id: 2, weight: 2, triple: 6 }] } });
    const t = await gql('{ __type(name: "query_root") { fields { name args { name type { kind ofType { name } } } } } }');
    const field = t.data.__type.fields.find((f: { name: string }) => f.name === 'shelves_from');
    expect(field.args.find((a: { name: string }) => a.name === 'args').type).toEqual({ kind: 'NON_NULL', ofType: { name: 'shelves_from_args' } });
  });
});
