-- role: reader
-- subscription: content_article_tag (live query, select on content.article_tag)
-- query: subscription { content_article_tag { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."article_tag"; filter: EXISTS (SELECT 1 FROM "public"."article" AS {alias article #1} WHERE {alias article #1}."id" = {row}."article_id" AND ({alias article #1}."status" = {value "published" :: text}))
--   columns: article_id, tag_id; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = constant "published", one per cohort :: text[] (read as text)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('content_article_tag', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('article_id', "_article_tag_1"."article_id", 'tag_id', "_article_tag_1"."tag_id") AS "__kiln_row"
          FROM "content"."article_tag" AS "_article_tag_1"
          WHERE EXISTS (
            SELECT 1
            FROM "public"."article" AS "_article_1"
            WHERE "_article_1"."id" = "_article_tag_1"."article_id" AND ("_article_1"."status" = ("_subs"."p1")::text))) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
