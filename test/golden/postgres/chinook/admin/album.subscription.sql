-- role: admin
-- subscription: album (live query, select on public.album)
-- query: subscription { album { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."album"; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('album', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('album_id', "_album_1"."album_id", 'title', "_album_1"."title", 'artist_id', "_album_1"."artist_id") AS "__kiln_row"
          FROM "public"."album" AS "_album_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
