-- role: admin
-- root field: insert_track_one (insert_one on public.track)
-- query: mutation ($track_id: Int, $name: String, $album_id: Int, $media_type_id: Int, $genre_id: Int, $composer: String, $milliseconds: Int, $bytes: Int, $unit_price: numeric) { insert_track_one(object: {track_id: $track_id, name: $name, album_id: $album_id, media_type_id: $media_type_id, genre_id: $genre_id, composer: $composer, milliseconds: $milliseconds, bytes: $bytes, unit_price: $unit_price}) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."track"; columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
--   check: none (every row)
--   on conflict: update columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; filter: none (every row); check: none (every row)
--   returning columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $track_id :: int4
-- $2 = variable $name :: varchar
-- $3 = variable $album_id :: int4
-- $4 = variable $media_type_id :: int4
-- $5 = variable $genre_id :: int4
-- $6 = variable $composer :: varchar
-- $7 = variable $milliseconds :: int4
-- $8 = variable $bytes :: int4
-- $9 = variable $unit_price :: numeric
WITH "_track_1" AS (INSERT INTO "public"."track" AS "_track_2" ("track_id", "name", "album_id", "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price") VALUES (($1)::int4, ($2)::varchar, ($3)::int4, ($4)::int4, ($5)::int4, ($6)::varchar, ($7)::int4, ($8)::int4, ($9)::numeric) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('track_id', "_track_3"."track_id", 'name', "_track_3"."name", 'album_id', "_track_3"."album_id", 'media_type_id', "_track_3"."media_type_id", 'genre_id', "_track_3"."genre_id", 'composer', "_track_3"."composer", 'milliseconds', "_track_3"."milliseconds", 'bytes', "_track_3"."bytes", 'unit_price', "_track_3"."unit_price")
      FROM (
        SELECT "track_id", "name", "album_id", "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price"
        FROM "_track_1") AS "_track_3"
      LIMIT 1))::text, 'null');
