-- role: admin
-- root field: update_content_article_tag_many (update_many on content.article_tag)
-- query: mutation ($article_id: Int, $tag_id: Int) { update_content_article_tag_many(updates: [{where: {}, _set: {article_id: $article_id, tag_id: $tag_id}}]) { affected_rows returning { article_id tag_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "content"."article_tag"; columns: article_id, tag_id
--   filter: none (every row); check: none (every row)
--   returning columns: article_id, tag_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $article_id :: int4
-- $2 = variable $tag_id :: int4
WITH "_article_tag_1" AS (UPDATE "content"."article_tag" AS "_article_tag_2" SET "article_id" = ($1)::int4, "tag_id" = ($2)::int4
  WHERE true AND true RETURNING "_article_tag_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_tag_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('article_id', "_article_tag_3"."article_id", 'tag_id', "_article_tag_3"."tag_id")), '[]'::json)
        FROM (
          SELECT "article_id", "tag_id"
          FROM "_article_tag_1") AS "_article_tag_3")))::text, 'null');
