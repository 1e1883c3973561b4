-- role: admin
-- persisted query: titles in collection readers
-- query: query Titles { article(order_by: {id: asc}) { title } }
SELECT (json_build_object('article', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"
          ORDER BY "_r_1"."__kiln_o0" ASC NULLS LAST), '[]'::json)
      FROM (
        SELECT json_build_object('title', "_article_1"."title") AS "__kiln_row", "_article_1"."id" AS "__kiln_o0"
        FROM "public"."article" AS "_article_1"
        WHERE true) AS "_r_1")))::text;
