-- role: user
-- persisted query: articles_with_authors in collection site
-- query: query ArticlesWithAuthors { article(order_by: {id: asc}) { id title author { name } } }
-- $1 = session x-svc-user-id :: int4
-- $2 = session x-svc-user-id :: int4
-- $3 = constant "published" :: text
SELECT (json_build_object('article', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"
          ORDER BY "_r_1"."__kiln_o0" ASC NULLS LAST), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'author', (
            SELECT json_build_object('name', "_author_1"."name")
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."id" = ($1)::int4)
            LIMIT 1)) AS "__kiln_row", "_article_1"."id" AS "__kiln_o0"
        FROM "public"."article" AS "_article_1"
        WHERE (("_article_1"."author_id" = ($2)::int4) OR ("_article_1"."status" = ($3)::text))) AS "_r_1")))::text;
