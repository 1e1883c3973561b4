-- role: admin
-- root field: content_article_tag_by_pk (select_by_pk on content.article_tag)
-- query: query ($article_id: Int!, $tag_id: Int!) { content_article_tag_by_pk(article_id: $article_id, tag_id: $tag_id) { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."article_tag"; filter: none (every row)
--   columns: article_id, tag_id
-- $1 = variable $article_id :: int4
-- $2 = variable $tag_id :: int4
SELECT (json_build_object('content_article_tag_by_pk', (
      SELECT json_build_object('article_id', "_article_tag_1"."article_id", 'tag_id', "_article_tag_1"."tag_id")
      FROM "content"."article_tag" AS "_article_tag_1"
      WHERE "_article_tag_1"."article_id" = ($1)::int4 AND "_article_tag_1"."tag_id" = ($2)::int4 AND true
      LIMIT 1)))::text;
