-- role: admin
-- root field: delete_album_by_pk (delete_by_pk on public.album)
-- query: mutation ($pk_album_id: Int!) { delete_album_by_pk(album_id: $pk_album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."album"; filter: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_album_id :: int4
WITH "_album_1" AS (DELETE
  FROM "public"."album" AS "_album_2"
  WHERE true AND ("_album_2"."album_id" = ($1)::int4) RETURNING "_album_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('album_id', "_album_3"."album_id", 'title', "_album_3"."title", 'artist_id', "_album_3"."artist_id")
      FROM (
        SELECT "album_id", "title", "artist_id"
        FROM "_album_1") AS "_album_3"
      LIMIT 1))::text, 'null');
