-- role: admin
-- root field: insert_article_one (insert_one on public.article)
-- query: mutation ($id: Int, $title: String, $body: String, $author_id: Int, $status: article_status_enum, $views: bigint, $tags: _text, $published_on: date) { insert_article_one(object: {id: $id, title: $title, body: $body, author_id: $author_id, status: $status, views: $views, tags: $tags, published_on: $published_on}) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."article"; columns: id, title, body, author_id, status, views, tags, published_on
--   check: none (every row)
--   on conflict: update columns: id, title, body, author_id, status, views, tags, published_on; filter: none (every row); check: none (every row)
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
WITH "_article_1" AS (INSERT INTO "public"."article" AS "_article_2" ("id", "title", "body", "author_id", "status", "views", "tags", "published_on") VALUES (($1)::int4, ($2)::text, ($3)::text, ($4)::int4, ($5)::text, ($6)::int8, ($7)::_text, ($8)::date) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('id', "_article_3"."id", 'title', "_article_3"."title", 'body', "_article_3"."body", 'author_id', "_article_3"."author_id", 'status', "_article_3"."status", 'views', "_article_3"."views", 'tags', "_article_3"."tags", 'published_on', "_article_3"."published_on")
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"
      LIMIT 1))::text, 'null');
