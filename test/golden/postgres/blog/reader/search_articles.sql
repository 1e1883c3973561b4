-- role: reader
-- root field: search_articles (function on public.article)
-- query: query ($search: String!) { search_articles(args: {search: $search}) { id title views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."search_articles"({arguments}); filter: (({row}."status" = {value "published" :: text}) AND EXISTS (SELECT 1 FROM "public"."author" AS {alias author #1} WHERE {alias author #1}."id" = {row}."author_id" AND ({alias author #1}."is_public" = {value true :: bool})))
--   columns: id, title, views, tags, published_on; row limit: 2
-- $1 = variable $search :: text
-- $2 = constant "published" :: text
-- $3 = constant true :: bool
-- $4 = constant 2 :: int4
SELECT (json_build_object('search_articles', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on") AS "__kiln_row"
        FROM "public"."search_articles"(($1)::text) AS "_article_1"
        WHERE (("_article_1"."status" = ($2)::text) AND EXISTS (
            SELECT 1
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ($3)::bool)))
        LIMIT ($4)::int4) AS "_r_1")))::text;
