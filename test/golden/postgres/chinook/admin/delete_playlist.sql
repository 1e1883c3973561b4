-- role: admin
-- root field: delete_playlist (delete on public.playlist)
-- query: mutation { delete_playlist(where: {}) { affected_rows returning { playlist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."playlist"; filter: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_playlist_1" AS (DELETE
  FROM "public"."playlist" AS "_playlist_2"
  WHERE true AND true RETURNING "_playlist_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_playlist_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('playlist_id', "_playlist_3"."playlist_id", 'name', "_playlist_3"."name")), '[]'::json)
        FROM (
          SELECT "playlist_id", "name"
          FROM "_playlist_1") AS "_playlist_3")))::text, 'null');
