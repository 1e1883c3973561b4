-- role: reader
-- root field: article_by_pk (select_by_pk on public.article)
-- query: query ($id: Int!) { article_by_pk(id: $id) { id title views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article"; filter: (({row}."status" = {value "published" :: text}) AND EXISTS (SELECT 1 FROM "public"."author" AS {alias author #1} WHERE {alias author #1}."id" = {row}."author_id" AND ({alias author #1}."is_public" = {value true :: bool})))
--   columns: id, title, views, tags, published_on
-- $1 = variable $id :: int4
-- $2 = constant "published" :: text
-- $3 = constant true :: bool
SELECT (json_build_object('article_by_pk', (
      SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on")
      FROM "public"."article" AS "_article_1"
      WHERE "_article_1"."id" = ($1)::int4 AND (("_article_1"."status" = ($2)::text) AND EXISTS (
          SELECT 1
          FROM "public"."author" AS "_author_1"
          WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ($3)::bool)))
      LIMIT 1)))::text;
