-- role: reader
-- persisted query: titles in collection readers
-- query: query Titles { article(order_by: {id: asc}) { title } }
-- $1 = constant "published" :: text
-- $2 = constant true :: bool
-- $3 = constant 2 :: int4
SELECT (json_build_object('article', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('title', "_article_1"."title") AS "__kiln_row"
        FROM "public"."article" AS "_article_1"
        WHERE (("_article_1"."status" = ($1)::text) AND EXISTS (
            SELECT 1
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ($2)::bool)))
        ORDER BY "_article_1"."id" ASC NULLS LAST
        LIMIT ($3)::int4) AS "_r_1")))::text;
