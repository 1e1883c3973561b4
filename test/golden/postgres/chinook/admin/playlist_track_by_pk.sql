-- role: admin
-- root field: playlist_track_by_pk (select_by_pk on public.playlist_track)
-- query: query ($playlist_id: Int!, $track_id: Int!) { playlist_track_by_pk(playlist_id: $playlist_id, track_id: $track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist_track"; filter: none (every row)
--   columns: playlist_id, track_id
-- $1 = variable $playlist_id :: int4
-- $2 = variable $track_id :: int4
SELECT (json_build_object('playlist_track_by_pk', (
      SELECT json_build_object('playlist_id', "_playlist_track_1"."playlist_id", 'track_id', "_playlist_track_1"."track_id")
      FROM "public"."playlist_track" AS "_playlist_track_1"
      WHERE "_playlist_track_1"."playlist_id" = ($1)::int4 AND "_playlist_track_1"."track_id" = ($2)::int4 AND true
      LIMIT 1)))::text;
