-- role: admin
-- subscription: content_article_tag_aggregate (live query, select_aggregate on content.article_tag)
-- query: subscription { content_article_tag_aggregate { aggregate { count } nodes { article_id tag_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."article_tag"; filter: none (every row)
--   columns: article_id, tag_id; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('content_article_tag_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('article_id', "_article_tag_1"."article_id", 'tag_id', "_article_tag_1"."tag_id") AS "__kiln_row0"
          FROM "content"."article_tag" AS "_article_tag_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
