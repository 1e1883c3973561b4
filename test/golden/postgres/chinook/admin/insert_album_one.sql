-- role: admin
-- root field: insert_album_one (insert_one on public.album)
-- query: mutation ($album_id: Int, $title: String, $artist_id: Int) { insert_album_one(object: {album_id: $album_id, title: $title, artist_id: $artist_id}) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."album"; columns: album_id, title, artist_id
--   check: none (every row)
--   on conflict: update columns: album_id, title, artist_id; filter: none (every row); check: none (every row)
--   returning columns: album_id, title, artist_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $album_id :: int4
-- $2 = variable $title :: varchar
-- $3 = variable $artist_id :: int4
WITH "_album_1" AS (INSERT INTO "public"."album" AS "_album_2" ("album_id", "title", "artist_id") VALUES (($1)::int4, ($2)::varchar, ($3)::int4) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('album_id', "_album_3"."album_id", 'title', "_album_3"."title", 'artist_id', "_album_3"."artist_id")
      FROM (
        SELECT "album_id", "title", "artist_id"
        FROM "_album_1") AS "_album_3"
      LIMIT 1))::text, 'null');
