-- role: admin
-- root field: media_type_aggregate (select_aggregate on public.media_type)
-- query: query { media_type_aggregate { aggregate { count } nodes { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."media_type"; filter: none (every row)
--   columns: media_type_id, name; row limit: none; aggregations: yes
SELECT (json_build_object('media_type_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('media_type_id', "_media_type_1"."media_type_id", 'name', "_media_type_1"."name") AS "__kiln_row0"
        FROM "public"."media_type" AS "_media_type_1"
        WHERE true) AS "_r_1")))::text;
