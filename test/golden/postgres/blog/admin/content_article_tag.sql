-- role: admin
-- root field: content_article_tag (select on content.article_tag)
-- query: query { content_article_tag { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."article_tag"; filter: none (every row)
--   columns: article_id, tag_id; row limit: none
SELECT (json_build_object('content_article_tag', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('article_id', "_article_tag_1"."article_id", 'tag_id', "_article_tag_1"."tag_id") AS "__kiln_row"
        FROM "content"."article_tag" AS "_article_tag_1"
        WHERE true) AS "_r_1")))::text;
