-- role: admin
-- root field: delete_article_by_pk (delete_by_pk on public.article)
-- query: mutation ($pk_id: Int!) { delete_article_by_pk(id: $pk_id) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."article"; filter: none (every row)
--   returning columns: id, title, body, author_id, status, views, tags, published_on
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_id :: int4
WITH "_article_1" AS (DELETE
  FROM "public"."article" AS "_article_2"
  WHERE true AND ("_article_2"."id" = ($1)::int4) RETURNING "_article_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('id', "_article_3"."id", 'title', "_article_3"."title", 'body', "_article_3"."body", 'author_id', "_article_3"."author_id", 'status', "_article_3"."status", 'views', "_article_3"."views", 'tags', "_article_3"."tags", 'published_on', "_article_3"."published_on")
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"
      LIMIT 1))::text, 'null');
