-- role: admin
-- root field: delete_content_article_tag (delete on content.article_tag)
-- query: mutation { delete_content_article_tag(where: {}) { affected_rows returning { article_id tag_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "content"."article_tag"; filter: none (every row)
--   returning columns: article_id, tag_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_article_tag_1" AS (DELETE
  FROM "content"."article_tag" AS "_article_tag_2"
  WHERE true AND true RETURNING "_article_tag_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_tag_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('article_id', "_article_tag_3"."article_id", 'tag_id', "_article_tag_3"."tag_id")), '[]'::json)
        FROM (
          SELECT "article_id", "tag_id"
          FROM "_article_tag_1") AS "_article_tag_3")))::text, 'null');
