-- role: admin
-- subscription: genre (live query, select on public.genre)
-- query: subscription { genre { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."genre"; filter: none (every row)
--   columns: genre_id, name; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('genre', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name") AS "__kiln_row"
          FROM "public"."genre" AS "_genre_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
