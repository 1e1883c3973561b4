-- role: admin
-- root field: track_by_pk (select_by_pk on public.track)
-- query: query ($track_id: Int!) { track_by_pk(track_id: $track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."track"; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- $1 = variable $track_id :: int4
SELECT (json_build_object('track_by_pk', (
      SELECT json_build_object('track_id', "_track_1"."track_id", 'name', "_track_1"."name", 'album_id', "_track_1"."album_id", 'media_type_id', "_track_1"."media_type_id", 'genre_id', "_track_1"."genre_id", 'composer', "_track_1"."composer", 'milliseconds', "_track_1"."milliseconds", 'bytes', "_track_1"."bytes", 'unit_price', "_track_1"."unit_price")
      FROM "public"."track" AS "_track_1"
      WHERE "_track_1"."track_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
