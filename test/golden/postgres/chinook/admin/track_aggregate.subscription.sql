-- role: admin
-- subscription: track_aggregate (live query, select_aggregate on public.track)
-- query: subscription { track_aggregate { aggregate { count } nodes { track_id name album_id media_type_id genre_id composer milliseconds bytes unit_price } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."track"; filter: none (every row)
--   columns: track_id, name, album_id, media_type_id, genre_id, composer, milliseconds, bytes, unit_price; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('track_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('track_id', "_track_1"."track_id", 'name', "_track_1"."name", 'album_id', "_track_1"."album_id", 'media_type_id', "_track_1"."media_type_id", 'genre_id', "_track_1"."genre_id", 'composer', "_track_1"."composer", 'milliseconds', "_track_1"."milliseconds", 'bytes', "_track_1"."bytes", 'unit_price', "_track_1"."unit_price") AS "__kiln_row0"
          FROM "public"."track" AS "_track_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
