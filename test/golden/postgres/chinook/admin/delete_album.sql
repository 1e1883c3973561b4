-- role: admin
-- root field: delete_album (delete on public.album)
-- query: mutation { delete_album(where: {}) { affected_rows returning { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."album"; filter: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_album_1" AS (DELETE
  FROM "public"."album" AS "_album_2"
  WHERE true AND true RETURNING "_album_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_album_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('album_id', "_album_3"."album_id", 'title', "_album_3"."title", 'artist_id', "_album_3"."artist_id")), '[]'::json)
        FROM (
          SELECT "album_id", "title", "artist_id"
          FROM "_album_1") AS "_album_3")))::text, 'null');
