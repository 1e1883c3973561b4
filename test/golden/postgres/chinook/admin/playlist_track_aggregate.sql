-- role: admin
-- root field: playlist_track_aggregate (select_aggregate on public.playlist_track)
-- query: query { playlist_track_aggregate { aggregate { count } nodes { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist_track"; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none; aggregations: yes
SELECT (json_build_object('playlist_track_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('playlist_id', "_playlist_track_1"."playlist_id", 'track_id', "_playlist_track_1"."track_id") AS "__kiln_row0"
        FROM "public"."playlist_track" AS "_playlist_track_1"
        WHERE true) AS "_r_1")))::text;
