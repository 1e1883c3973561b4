// GraphQL operations on Chinook that the MSSQL tests answer both ways: one per query shape
// (filters, order and nulls, paging, relationships, aggregates, primary keys, a role's filter).

export const TABLES = ['artist', 'album', 'genre', 'media_type', 'track', 'employee', 'customer', 'invoice', 'invoice_line', 'playlist', 'playlist_track'];

export interface Case {
  readonly name: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly role?: string;
  readonly session?: Record<string, string>;
}

export const CASES: readonly Case[] = [
  { name: 'a list with _eq, order and limit', query: '{ album(where: {artist_id: {_eq: 90}}, order_by: {title: asc}, limit: 5) { album_id title } }' },
  { name: 'paging with offset', query: '{ track(order_by: [{milliseconds: desc}, {track_id: asc}], offset: 10, limit: 7) { track_id name milliseconds } }' },
  { name: 'offset without limit', query: '{ genre(order_by: {genre_id: asc}, offset: 20) { genre_id name } }' },
  { name: 'nulls placement in order_by', query: '{ track(where: {album_id: {_lte: 20}}, order_by: [{composer: asc_nulls_first}, {track_id: desc}], limit: 12) { track_id composer } a: track(where: {album_id: {_lte: 20}}, order_by: [{composer: desc}, {track_id: asc}], limit: 12) { track_id composer } }' },
  { name: 'pattern operators', query: '{ artist(where: {_or: [{name: {_like: "%Zeppelin%"}}, {name: {_ilike: "metal%"}}]}, order_by: {artist_id: asc}) { artist_id name } n: artist(where: {name: {_nlike: "A%"}}, order_by: {artist_id: asc}, limit: 3) { name } }' },
  { name: '_in, _nin, _is_null, _not', query: '{ customer(where: {_and: [{country: {_in: ["Brazil", "Canada"]}}, {company: {_is_null: false}}, {_not: {city: {_nin: ["São Paulo", "Montréal"]}}}]}, order_by: {customer_id: asc}) { customer_id city company } }' },
  { name: '_in through a variable', query: 'query ($ids: [Int!]) { album(where: {album_id: {_in: $ids}}, order_by: {album_id: desc}) { album_id title } }', variables: { ids: [3, 1, 200, 999] } },
  { name: 'a filter through relationships', query: '{ album(where: {tracks: {genre: {name: {_eq: "Jazz"}}}}, order_by: {album_id: asc}, limit: 8) { title artist { name } } }' },
  { name: 'nested array and object relationships with their own arguments', query: '{ artist(where: {artist_id: {_in: [1, 8, 22]}}, order_by: {artist_id: asc}) { name albums(order_by: {title: desc}) { title tracks(where: {milliseconds: {_gt: 300000}}, order_by: {name: asc}, limit: 2) { name genre { name } media_type { name } } } } }' },
  { name: 'an empty array relationship and a null object relationship', query: '{ artist(where: {artist_id: {_in: [25, 26]}}, order_by: {artist_id: asc}) { artist_id albums { title } } employee(order_by: {employee_id: asc}, limit: 2) { employee_id manager { employee_id } } }' },
  { name: 'aggregates with nodes', query: '{ track_aggregate(where: {album_id: {_eq: 1}}) { aggregate { count sum { milliseconds unit_price } avg { milliseconds } max { name bytes } min { unit_price } } nodes { track_id } } }' },
  { name: 'count distinct and a nested aggregate', query: '{ invoice_aggregate { aggregate { count(columns: billing_country, distinct: true) c2: count(columns: billing_state) } } artist(limit: 3, order_by: {artist_id: asc}) { name albums_aggregate { aggregate { count } } } }' },
  { name: 'order by a relationship and by an aggregate', query: '{ album(order_by: [{artist: {name: desc}}, {album_id: asc}], limit: 5) { album_id artist { name } } artist(order_by: [{albums_aggregate: {count: desc}}, {artist_id: asc}], limit: 3) { artist_id } }' },
  { name: 'by primary key, found and not found', query: '{ a: track_by_pk(track_id: 42) { name unit_price album { title } } b: track_by_pk(track_id: 987654) { name } }' },
  { name: '__typename and numbers and timestamps', query: '{ invoice(where: {invoice_id: {_lt: 4}}, order_by: {invoice_id: asc}) { __typename invoice_id invoice_date total } }' },
  { name: 'the customer role sees only its invoices', role: 'customer', session: { 'x-svc-customer-id': '5' }, query: '{ invoice(order_by: {invoice_id: asc}) { invoice_id total customer_id } invoice_line(order_by: {invoice_line_id: asc}, limit: 4) { invoice_line_id invoice_id } }' },
  { name: 'the customer role reads the lines of its invoices through them', role: 'customer', session: { 'x-svc-customer-id': '5' }, query: '{ invoice(where: {invoice_id: {_lt: 80}}, order_by: {invoice_id: asc}) { invoice_id invoice_lines(order_by: {invoice_line_id: asc}) { invoice_line_id unit_price } invoice_lines_aggregate { aggregate { count } } } }' },
  { name: 'the customer role by primary key of another customer', role: 'customer', session: { 'x-svc-customer-id': '5' }, query: '{ invoice_by_pk(invoice_id: 1) { invoice_id } mine: invoice_by_pk(invoice_id: 77) { invoice_id customer_id } }' },
];

