-- role: admin
-- root field: delete_playlist_track (delete on public.playlist_track)
-- query: mutation { delete_playlist_track(where: {}) { affected_rows returning { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."playlist_track"; filter: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_playlist_track_1" AS (DELETE
  FROM "public"."playlist_track" AS "_playlist_track_2"
  WHERE true AND true RETURNING "_playlist_track_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_playlist_track_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('playlist_id', "_playlist_track_3"."playlist_id", 'track_id', "_playlist_track_3"."track_id")), '[]'::json)
        FROM (
          SELECT "playlist_id", "track_id"
          FROM "_playlist_track_1") AS "_playlist_track_3")))::text, 'null');
