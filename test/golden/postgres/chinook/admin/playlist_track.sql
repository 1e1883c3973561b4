-- role: admin
-- root field: playlist_track (select on public.playlist_track)
-- query: query { playlist_track { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist_track"; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none
SELECT (json_build_object('playlist_track', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('playlist_id', "_playlist_track_1"."playlist_id", 'track_id', "_playlist_track_1"."track_id") AS "__kiln_row"
        FROM "public"."playlist_track" AS "_playlist_track_1"
        WHERE true) AS "_r_1")))::text;
