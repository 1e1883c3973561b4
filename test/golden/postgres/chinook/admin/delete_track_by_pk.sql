-- role: admin
-- root field: delete_track_by_pk (delete_by_pk on public.track)
-- query: mutation ($pk_track_id: Int!) { delete_track_by_pk(track_id: $pk_track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."track"; filter: none (every row)
--   returning columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_track_id :: int4
WITH "_track_1" AS (DELETE
  FROM "public"."track" AS "_track_2"
  WHERE true AND ("_track_2"."track_id" = ($1)::int4) RETURNING "_track_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('track_id', "_track_3"."track_id", 'name', "_track_3"."name", 'album_id', "_track_3"."album_id", 'media_type_id', "_track_3"."media_type_id", 'genre_id', "_track_3"."genre_id", 'composer', "_track_3"."composer", 'milliseconds', "_track_3"."milliseconds", 'bytes', "_track_3"."bytes", 'unit_price', "_track_3"."unit_price")
      FROM (
        SELECT "track_id", "name", "album_id", "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price"
        FROM "_track_1") AS "_track_3"
      LIMIT 1))::text, 'null');
