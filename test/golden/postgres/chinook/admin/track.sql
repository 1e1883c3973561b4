-- role: admin
-- root field: track (select on public.track)
-- query: query { track { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."track"; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; row limit: none
SELECT (json_build_object('track', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('track_id', "_track_1"."track_id", 'name', "_track_1"."name", 'album_id', "_track_1"."album_id", 'media_type_id', "_track_1"."media_type_id", 'genre_id', "_track_1"."genre_id", 'composer', "_track_1"."composer", 'milliseconds', "_track_1"."milliseconds", 'bytes', "_track_1"."bytes", 'unit_price', "_track_1"."unit_price") AS "__kiln_row"
        FROM "public"."track" AS "_track_1"
        WHERE true) AS "_r_1")))::text;
