-- role: admin
-- root field: update_article_many (update_many on public.article)
-- query: mutation ($id: Int, $title: String, $body: String, $author_id: Int, $status: article_status_enum, $views: bigint, $tags: _text, $published_on: date) { update_article_many(updates: [{where: {}, _set: {id: $id, title: $title, body: $body, author_id: $author_id, status: $status, views: $views, tags: $tags, published_on: $published_on}}]) { affected_rows returning { id title body author_id status views tags published_on } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."article"; columns: id, title, body, author_id, status, views, tags, published_on
--   filter: none (every row); check: none (every row)
--   returning columns: id, title, body, author_id, status, views, tags, published_on
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $id :: int4
-- $2 = variable $title :: text
-- $3 = variable $body :: text
-- $4 = variable $author_id :: int4
-- $5 = variable $status :: text
-- $6 = variable $views :: int8
-- $7 = variable $tags :: _text
-- $8 = variable $published_on :: date
WITH "_article_1" AS (UPDATE "public"."article" AS "_article_2" SET "id" = ($1)::int4, "title" = ($2)::text, "body" = ($3)::text, "author_id" = ($4)::int4, "status" = ($5)::text, "views" = ($6)::int8, "tags" = ($7)::_text, "published_on" = ($8)::date
  WHERE true AND true RETURNING "_article_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_article_3"."id", 'title', "_article_3"."title", 'body', "_article_3"."body", 'author_id', "_article_3"."author_id", 'status', "_article_3"."status", 'views', "_article_3"."views", 'tags', "_article_3"."tags", 'published_on', "_article_3"."published_on")), '[]'::json)
        FROM (
          SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
          FROM "_article_1") AS "_article_3")))::text, 'null');
