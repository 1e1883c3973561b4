-- role: admin
-- root field: insert_content_article_tag_one (insert_one on content.article_tag)
-- query: mutation ($article_id: Int, $tag_id: Int) { insert_content_article_tag_one(object: {article_id: $article_id, tag_id: $tag_id}) { article_id tag_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "content"."article_tag"; columns: article_id, tag_id
--   check: none (every row)
--   on conflict: update columns: article_id, tag_id; filter: none (every row); check: none (every row)
--   returning columns: article_id, tag_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $article_id :: int4
-- $2 = variable $tag_id :: int4
WITH "_article_tag_1" AS (INSERT INTO "content"."article_tag" AS "_article_tag_2" ("article_id", "tag_id") VALUES (($1)::int4, ($2)::int4) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('article_id', "_article_tag_3"."article_id", 'tag_id', "_article_tag_3"."tag_id")
      FROM (
        SELECT "article_id", "tag_id"
        FROM "_article_tag_1") AS "_article_tag_3"
      LIMIT 1))::text, 'null');
