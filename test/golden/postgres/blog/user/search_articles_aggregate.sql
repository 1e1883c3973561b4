-- role: user
-- root field: search_articles_aggregate (function_aggregate on public.article)
-- query: query ($search: String!) { search_articles_aggregate(args: {search: $search}) { aggregate { count } nodes { id title body author_id status views tags published_on } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."search_articles"({arguments}); filter: (({row}."author_id" = {session x-svc-user-id :: int4}) OR ({row}."status" = {value "published" :: text}))
--   columns: id, title, body, author_id, status, views, tags, published_on; row limit: none; aggregations: yes
-- $1 = variable $search :: text
-- $2 = session x-svc-user-id :: int4
-- $3 = constant "published" :: text
SELECT (json_build_object('search_articles_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'body', "_article_1"."body", 'author_id', "_article_1"."author_id", 'status', "_article_1"."status", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on") AS "__kiln_row0"
        FROM "public"."search_articles"(($1)::text) AS "_article_1"
        WHERE (("_article_1"."author_id" = ($2)::int4) OR ("_article_1"."status" = ($3)::text))) AS "_r_1")))::text;
