-- role: admin
-- root field: playlist_aggregate (select_aggregate on public.playlist)
-- query: query { playlist_aggregate { aggregate { count } nodes { playlist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist"; filter: none (every row)
--   columns: playlist_id, name; row limit: none; aggregations: yes
SELECT (json_build_object('playlist_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('playlist_id', "_playlist_1"."playlist_id", 'name', "_playlist_1"."name") AS "__kiln_row0"
        FROM "public"."playlist" AS "_playlist_1"
        WHERE true) AS "_r_1")))::text;
