-- role: admin
-- subscription: article_status (live query, select on public.article_status)
-- query: subscription { article_status { value comment } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article_status"; filter: none (every row)
--   columns: value, comment; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('article_status', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('value', "_article_status_1"."value", 'comment', "_article_status_1"."comment") AS "__kiln_row"
          FROM "public"."article_status" AS "_article_status_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
