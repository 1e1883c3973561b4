-- role: admin
-- root field: album_by_pk (select_by_pk on public.album)
-- query: query ($album_id: Int!) { album_by_pk(album_id: $album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."album"; filter: none (every row)
--   columns: album_id, title, artist_id
-- $1 = variable $album_id :: int4
SELECT (json_build_object('album_by_pk', (
      SELECT json_build_object('album_id', "_album_1"."album_id", 'title', "_album_1"."title", 'artist_id', "_album_1"."artist_id")
      FROM "public"."album" AS "_album_1"
      WHERE "_album_1"."album_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
