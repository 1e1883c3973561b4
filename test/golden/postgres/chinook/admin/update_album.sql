-- role: admin
-- root field: update_album (update on public.album)
-- query: mutation ($album_id: Int, $title: String, $artist_id: Int) { update_album(where: {}, _set: {album_id: $album_id, title: $title, artist_id: $artist_id}) { affected_rows returning { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."album"; columns: album_id, title, artist_id
--   filter: none (every row); check: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $album_id :: int4
-- $2 = variable $title :: varchar
-- $3 = variable $artist_id :: int4
WITH "_album_1" AS (UPDATE "public"."album" AS "_album_2" SET "album_id" = ($1)::int4, "title" = ($2)::varchar, "artist_id" = ($3)::int4
  WHERE true AND true RETURNING "_album_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_album_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('album_id', "_album_3"."album_id", 'title', "_album_3"."title", 'artist_id', "_album_3"."artist_id")), '[]'::json)
        FROM (
          SELECT "album_id", "title", "artist_id"
          FROM "_album_1") AS "_album_3")))::text, 'null');
