// The PostgreSQL catalog queries. Each returns one row with one text column holding JSON, built by
// the server (json_agg) and cast to text so that every driver hands it over unparsed (PGlite
// parses json-typed results itself). Only catalog features PostgreSQL 15 and 18 both have.
// Row order inside the JSON is not relied on: the reader sorts everything in JS.

/** Schemas the reader skips: the system ones and Kiln's own catalog. `n` is pg_namespace. */
const USER_SCHEMA = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'svc_catalog')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'`;

/** Server version, user schemas, and the user-defined types (enums with labels, domains, ranges,
 *  standalone composites, base types from extensions); array types and table row types left out. */
export const TYPES_QUERY = `
SELECT json_build_object(
  'version', current_setting('server_version'),
  'schemas', (SELECT coalesce(json_agg(n.nspname), '[]') FROM pg_catalog.pg_namespace n WHERE ${USER_SCHEMA}),
  'types', (
    SELECT coalesce(json_agg(json_build_object(
      'schema', n.nspname,
      'name', t.typname,
      'typtype', t.typtype,
      'labels', (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid),
      'baseType', bt.typname,
      'baseTypeSchema', btn.nspname
    )), '[]')
    FROM pg_catalog.pg_type t
    JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
    LEFT JOIN pg_catalog.pg_class rc ON rc.oid = t.typrelid
    LEFT JOIN pg_catalog.pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
    LEFT JOIN pg_catalog.pg_namespace btn ON btn.oid = bt.typnamespace
    WHERE ${USER_SCHEMA}
      AND t.typtype IN ('b', 'c', 'd', 'e', 'r')
      AND (t.typtype <> 'c' OR rc.relkind = 'c')
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type el WHERE el.typarray = t.oid)
  )
)::text`;

/** Tables, views, materialized views, foreign and partitioned tables with their columns and their
 *  primary key, unique and foreign key constraints (key columns in key order). */
export const RELATIONS_QUERY = `
SELECT coalesce(json_agg(json_build_object(
  'schema', n.nspname,
  'name', c.relname,
  'relkind', c.relkind,
  'comment', d.description,
  'updatable', pg_catalog.pg_relation_is_updatable(c.oid, true),
  'selectable', pg_catalog.has_table_privilege(c.oid, 'SELECT'),
  'columns', (
    SELECT coalesce(json_agg(json_build_object(
      'name', a.attname,
      'position', a.attnum,
      'type', t.typname,
      'typeSchema', tn.nspname,
      'typtype', t.typtype,
      'elementType', el.typname,
      'notNull', a.attnotnull,
      'default', CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) END,
      'identity', a.attidentity,
      'generated', a.attgenerated,
      'comment', cd.description
    ) ORDER BY a.attnum), '[]')
    FROM pg_catalog.pg_attribute a
    JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
    JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
    LEFT JOIN pg_catalog.pg_type el ON el.oid = t.typelem AND el.typarray = t.oid AND t.typtype = 'b'
    LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    LEFT JOIN pg_catalog.pg_description cd
      ON cd.objoid = c.oid AND cd.classoid = 'pg_catalog.pg_class'::regclass AND cd.objsubid = a.attnum
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  ),
  'constraints', (
    SELECT coalesce(json_agg(json_build_object(
      'name', k.conname,
      'type', k.contype,
      'columns', (
        SELECT json_agg(ka.attname ORDER BY u.ord)
        FROM unnest(k.conkey) WITH ORDINALITY AS u(num, ord)
        JOIN pg_catalog.pg_attribute ka ON ka.attrelid = k.conrelid AND ka.attnum = u.num
      ),
      'refSchema', rn.nspname,
      'refTable', rc.relname,
      'refColumns', (
        SELECT json_agg(ra.attname ORDER BY u.ord)
        FROM unnest(k.confkey) WITH ORDINALITY AS u(num, ord)
        JOIN pg_catalog.pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = u.num
      )
    )), '[]')
    FROM pg_catalog.pg_constraint k
    LEFT JOIN pg_catalog.pg_class rc ON rc.oid = k.confrelid
    LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
    WHERE k.conrelid = c.oid AND k.contype IN ('p', 'u', 'f')
  )
)), '[]')::text
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_description d
  ON d.objoid = c.oid AND d.classoid = 'pg_catalog.pg_class'::regclass AND d.objsubid = 0
WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND ${USER_SCHEMA}`;

/** Plain functions (no aggregates, window functions or procedures) with all their arguments
 *  (modes and names aligned; the reader keeps the input ones) and their return type. */
export const FUNCTIONS_QUERY = `
SELECT coalesce(json_agg(json_build_object(
  'schema', n.nspname,
  'name', p.proname,
  'comment', d.description,
  'volatility', p.provolatile,
  'nargs', p.pronargs,
  'nargdefaults', p.pronargdefaults,
  'args', (
    SELECT coalesce(json_agg(json_build_object(
      'name', a.name,
      'mode', a.mode,
      'type', t.typname,
      'typeSchema', tn.nspname
    ) ORDER BY a.ord), '[]')
    FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargmodes, p.proargnames)
      WITH ORDINALITY AS a(typ, mode, name, ord)
    JOIN pg_catalog.pg_type t ON t.oid = a.typ
    JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
  ),
  'returnType', rt.typname,
  'returnTypeSchema', rtn.nspname,
  'returnTyptype', rt.typtype,
  'returnRelkind', rc.relkind,
  'returnsSet', p.proretset
)), '[]')::text
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
JOIN pg_catalog.pg_type rt ON rt.oid = p.prorettype
JOIN pg_catalog.pg_namespace rtn ON rtn.oid = rt.typnamespace
LEFT JOIN pg_catalog.pg_class rc ON rc.oid = rt.typrelid
LEFT JOIN pg_catalog.pg_description d
  ON d.objoid = p.oid AND d.classoid = 'pg_catalog.pg_proc'::regclass AND d.objsubid = 0
WHERE p.prokind = 'f' AND ${USER_SCHEMA}`;
