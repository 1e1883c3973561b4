-- role: admin
-- root field: delete_playlist_track_by_pk (delete_by_pk on public.playlist_track)
-- query: mutation ($pk_playlist_id: Int!, $pk_track_id: Int!) { delete_playlist_track_by_pk(playlist_id: $pk_playlist_id, track_id: $pk_track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."playlist_track"; filter: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_playlist_id :: int4
-- $2 = variable $pk_track_id :: int4
WITH "_playlist_track_1" AS (DELETE
  FROM "public"."playlist_track" AS "_playlist_track_2"
  WHERE true AND (("_playlist_track_2"."playlist_id" = ($1)::int4) AND ("_playlist_track_2"."track_id" = ($2)::int4)) RETURNING "_playlist_track_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('playlist_id', "_playlist_track_3"."playlist_id", 'track_id', "_playlist_track_3"."track_id")
      FROM (
        SELECT "playlist_id", "track_id"
        FROM "_playlist_track_1") AS "_playlist_track_3"
      LIMIT 1))::text, 'null');
