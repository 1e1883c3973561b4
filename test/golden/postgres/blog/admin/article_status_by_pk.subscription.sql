-- role: admin
-- subscription: article_status_by_pk (live query, select_by_pk on public.article_status)
-- query: subscription ($value: String!) { article_status_by_pk(value: $value) { value comment } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article_status"; filter: none (every row)
--   columns: value, comment
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $value, one per cohort :: text[] (read as text)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('article_status_by_pk', (
        SELECT json_build_object('value', "_article_status_1"."value", 'comment', "_article_status_1"."comment")
        FROM "public"."article_status" AS "_article_status_1"
        WHERE "_article_status_1"."value" = ("_subs"."p1")::text AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
