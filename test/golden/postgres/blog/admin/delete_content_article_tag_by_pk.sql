-- role: admin
-- root field: delete_content_article_tag_by_pk (delete_by_pk on content.article_tag)
-- query: mutation ($pk_article_id: Int!, $pk_tag_id: Int!) { delete_content_article_tag_by_pk(article_id: $pk_article_id, tag_id: $pk_tag_id) { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "content"."article_tag"; filter: none (every row)
--   returning columns: article_id, tag_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_article_id :: int4
-- $2 = variable $pk_tag_id :: int4
WITH "_article_tag_1" AS (DELETE
  FROM "content"."article_tag" AS "_article_tag_2"
  WHERE true AND (("_article_tag_2"."article_id" = ($1)::int4) AND ("_article_tag_2"."tag_id" = ($2)::int4)) RETURNING "_article_tag_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('article_id', "_article_tag_3"."article_id", 'tag_id', "_article_tag_3"."tag_id")
      FROM (
        SELECT "article_id", "tag_id"
        FROM "_article_tag_1") AS "_article_tag_3"
      LIMIT 1))::text, 'null');
