-- role: reader
-- subscription: content_article_tag_by_pk (live query, select_by_pk on content.article_tag)
-- query: subscription ($article_id: Int!, $tag_id: Int!) { content_article_tag_by_pk(article_id: $article_id, tag_id: $tag_id) { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."article_tag"; filter: EXISTS (SELECT 1 FROM "public"."article" AS {alias article #1} WHERE {alias article #1}."id" = {row}."article_id" AND ({alias article #1}."status" = {value "published" :: text}))
--   columns: article_id, tag_id
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $article_id, one per cohort :: text[] (read as int4)
-- $3 = variable $tag_id, one per cohort :: text[] (read as int4)
-- $4 = constant "published", one per cohort :: text[] (read as text)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('content_article_tag_by_pk', (
        SELECT json_build_object('article_id', "_article_tag_1"."article_id", 'tag_id', "_article_tag_1"."tag_id")
        FROM "content"."article_tag" AS "_article_tag_1"
        WHERE "_article_tag_1"."article_id" = ("_subs"."p1")::int4 AND "_article_tag_1"."tag_id" = ("_subs"."p2")::int4 AND EXISTS (
          SELECT 1
          FROM "public"."article" AS "_article_1"
          WHERE "_article_1"."id" = "_article_tag_1"."article_id" AND ("_article_1"."status" = ("_subs"."p3")::text))
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[], $3::text[], $4::text[]) AS "_subs"("cohort_id", "p1", "p2", "p3");
