-- role: admin
-- subscription: track_by_pk (live query, select_by_pk on public.track)
-- query: subscription ($track_id: Int!) { track_by_pk(track_id: $track_id) { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."track"; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $track_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('track_by_pk', (
        SELECT json_build_object('track_id', "_track_1"."track_id", 'name', "_track_1"."name", 'album_id', "_track_1"."album_id", 'media_type_id', "_track_1"."media_type_id", 'genre_id', "_track_1"."genre_id", 'composer', "_track_1"."composer", 'milliseconds', "_track_1"."milliseconds", 'bytes', "_track_1"."bytes", 'unit_price', "_track_1"."unit_price")
        FROM "public"."track" AS "_track_1"
        WHERE "_track_1"."track_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
