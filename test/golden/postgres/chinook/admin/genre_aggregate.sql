-- role: admin
-- root field: genre_aggregate (select_aggregate on public.genre)
-- query: query { genre_aggregate { aggregate { count } nodes { genre_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."genre"; filter: none (every row)
--   columns: genre_id, name; row limit: none; aggregations: yes
SELECT (json_build_object('genre_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name") AS "__kiln_row0"
        FROM "public"."genre" AS "_genre_1"
        WHERE true) AS "_r_1")))::text;
