-- role: reader
-- persisted query: articles_with_authors in collection site
-- query: query ArticlesWithAuthors { article(order_by: {id: asc}) { id title author { name } } }
-- $1 = constant true :: bool
-- $2 = constant "published" :: text
-- $3 = constant true :: bool
-- $4 = constant 2 :: int4
SELECT (json_build_object('article', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'author', (
            SELECT json_build_object('name', "_author_1"."name")
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ($1)::bool)
            LIMIT 1)) AS "__kiln_row"
        FROM "public"."article" AS "_article_1"
        WHERE (("_article_1"."status" = ($2)::text) AND EXISTS (
            SELECT 1
            FROM "public"."author" AS "_author_2"
            WHERE "_author_2"."id" = "_article_1"."author_id" AND ("_author_2"."is_public" = ($3)::bool)))
        ORDER BY "_article_1"."id" ASC NULLS LAST
        LIMIT ($4)::int4) AS "_r_1")))::text;
