-- role: user
-- root field: update_article_by_pk (update_by_pk on public.article)
-- query: mutation ($pk_id: Int!, $title: String, $body: String, $status: article_status_enum, $tags: _text) { update_article_by_pk(pk_columns: {id: $pk_id}, _set: {title: $title, body: $body, status: $status, tags: $tags}) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."article"; columns: title, body, status, tags; presets: views = {value "0" :: int8}
--   filter: ({row}."author_id" = {session x-svc-user-id :: int4}); check: ({row}."status" = ANY({value ["draft","published"] :: text[]}))
--   returning columns: id, title, body, author_id, status, views, tags, published_on
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $title :: text
-- $2 = variable $body :: text
-- $3 = variable $status :: text
-- $4 = variable $tags :: _text
-- $5 = constant "0" :: int8
-- $6 = session x-svc-user-id :: int4
-- $7 = variable $pk_id :: int4
-- $8 = constant ["draft","published"] :: text[]
WITH "_article_1" AS (UPDATE "public"."article" AS "_article_2" SET "title" = ($1)::text, "body" = ($2)::text, "status" = ($3)::text, "tags" = ($4)::_text, "views" = ($5)::int8
  WHERE ("_article_2"."author_id" = ($6)::int4) AND ("_article_2"."id" = ($7)::int4) RETURNING "_article_2".*) SELECT (CASE WHEN NOT coalesce((
      SELECT bool_and(("_article_3"."status" = ANY(($8)::text[])))
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"), true) THEN '1:' ELSE '0:' END) || coalesce(((
      SELECT json_build_object('id', "_article_4"."id", 'title', "_article_4"."title", 'body', "_article_4"."body", 'author_id', "_article_4"."author_id", 'status', "_article_4"."status", 'views', "_article_4"."views", 'tags', "_article_4"."tags", 'published_on', "_article_4"."published_on")
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_4"
      LIMIT 1))::text, 'null');
