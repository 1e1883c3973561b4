-- role: reader
-- root field: article (select on public.article)
-- query: query { article { id title views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article"; filter: (({row}."status" = {value "published" :: text}) AND EXISTS (SELECT 1 FROM "public"."author" AS {alias author #1} WHERE {alias author #1}."id" = {row}."author_id" AND ({alias author #1}."is_public" = {value true :: bool})))
--   columns: id, title, views, tags, published_on; row limit: 2
-- $1 = constant "published" :: text
-- $2 = constant true :: bool
-- $3 = constant 2 :: int4
SELECT (json_build_object('article', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on") AS "__kiln_row"
        FROM "public"."article" AS "_article_1"
        WHERE (("_article_1"."status" = ($1)::text) AND EXISTS (
            SELECT 1
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ($2)::bool)))
        LIMIT ($3)::int4) AS "_r_1")))::text;
