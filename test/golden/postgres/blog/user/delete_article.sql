-- role: user
-- root field: delete_article (delete on public.article)
-- query: mutation { delete_article(where: {}) { affected_rows returning { id title body author_id status views tags published_on } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."article"; filter: (({row}."author_id" = {session x-svc-user-id :: int4}) AND ({row}."status" = {value "draft" :: text}))
--   returning columns: id, title, body, author_id, status, views, tags, published_on
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = session x-svc-user-id :: int4
-- $2 = constant "draft" :: text
WITH "_article_1" AS (DELETE
  FROM "public"."article" AS "_article_2"
  WHERE (("_article_2"."author_id" = ($1)::int4) AND ("_article_2"."status" = ($2)::text)) AND true RETURNING "_article_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_article_3"."id", 'title', "_article_3"."title", 'body', "_article_3"."body", 'author_id', "_article_3"."author_id", 'status', "_article_3"."status", 'views', "_article_3"."views", 'tags', "_article_3"."tags", 'published_on', "_article_3"."published_on")), '[]'::json)
        FROM (
          SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
          FROM "_article_1") AS "_article_3")))::text, 'null');
