-- role: admin
-- root field: delete_track (delete on public.track)
-- query: mutation { delete_track(where: {}) { affected_rows returning { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."track"; filter: none (every row)
--   returning columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_track_1" AS (DELETE
  FROM "public"."track" AS "_track_2"
  WHERE true AND true RETURNING "_track_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_track_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('track_id', "_track_3"."track_id", 'name', "_track_3"."name", 'album_id', "_track_3"."album_id", 'media_type_id', "_track_3"."media_type_id", 'genre_id', "_track_3"."genre_id", 'composer', "_track_3"."composer", 'milliseconds', "_track_3"."milliseconds", 'bytes', "_track_3"."bytes", 'unit_price', "_track_3"."unit_price")), '[]'::json)
        FROM (
          SELECT "track_id", "name", "album_id", "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price"
          FROM "_track_1") AS "_track_3")))::text, 'null');
