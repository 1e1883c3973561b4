-- role: user
-- root field: insert_article (insert on public.article)
-- query: mutation ($title: String, $body: String, $tags: _text, $published_on: date) { insert_article(objects: [{title: $title, body: $body, tags: $tags, published_on: $published_on}]) { affected_rows returning { id title body author_id status views tags published_on } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."article"; columns: title, body, tags, published_on; presets: author_id = {session x-svc-user-id :: int4}, status = {value "draft" :: text}
--   check: ({row}."author_id" = {session x-svc-user-id :: int4})
--   on conflict: update columns: title, body, status, tags; presets: views = {value "0" :: int8}; filter: ({row}."author_id" = {session x-svc-user-id :: int4}); check: ({row}."status" = ANY({value ["draft","published"] :: text[]}))
--   returning columns: id, title, body, author_id, status, views, tags, published_on
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $title :: text
-- $2 = variable $body :: text
-- $3 = session x-svc-user-id :: int4
-- $4 = constant "draft" :: text
-- $5 = variable $tags :: _text
-- $6 = variable $published_on :: date
-- $7 = session x-svc-user-id :: int4
WITH "_article_1" AS (INSERT INTO "public"."article" AS "_article_2" ("title", "body", "author_id", "status", "tags", "published_on") VALUES (($1)::text, ($2)::text, ($3)::int4, ($4)::text, ($5)::_text, ($6)::date) RETURNING *) SELECT (CASE WHEN NOT coalesce((
      SELECT bool_and(("_article_3"."author_id" = ($7)::int4))
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"), true) THEN '1:' ELSE '0:' END) || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_article_4"."id", 'title', "_article_4"."title", 'body', "_article_4"."body", 'author_id', "_article_4"."author_id", 'status', "_article_4"."status", 'views', "_article_4"."views", 'tags', "_article_4"."tags", 'published_on', "_article_4"."published_on")), '[]'::json)
        FROM (
          SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
          FROM "_article_1") AS "_article_4")))::text, 'null');
