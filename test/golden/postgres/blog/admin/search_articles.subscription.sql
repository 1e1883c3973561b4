-- role: admin
-- subscription: search_articles (live query, function on public.article)
-- query: subscription ($search: String!) { search_articles(args: {search: $search}) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."search_articles"({arguments}); filter: none (every row)
--   columns: id, title, body, author_id, status, views, tags, published_on; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $search, one per cohort :: text[] (read as text)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('search_articles', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'body', "_article_1"."body", 'author_id', "_article_1"."author_id", 'status', "_article_1"."status", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on") AS "__kiln_row"
          FROM "public"."search_articles"(("_subs"."p1")::text) AS "_article_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
