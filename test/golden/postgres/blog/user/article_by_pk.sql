-- role: user
-- root field: article_by_pk (select_by_pk on public.article)
-- query: query ($id: Int!) { article_by_pk(id: $id) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article"; filter: (({row}."author_id" = {session x-svc-user-id :: int4}) OR ({row}."status" = {value "published" :: text}))
--   columns: id, title, body, author_id, status, views, tags, published_on
-- $1 = variable $id :: int4
-- $2 = session x-svc-user-id :: int4
-- $3 = constant "published" :: text
SELECT (json_build_object('article_by_pk', (
      SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'body', "_article_1"."body", 'author_id', "_article_1"."author_id", 'status', "_article_1"."status", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on")
      FROM "public"."article" AS "_article_1"
      WHERE "_article_1"."id" = ($1)::int4 AND (("_article_1"."author_id" = ($2)::int4) OR ("_article_1"."status" = ($3)::text))
      LIMIT 1)))::text;
