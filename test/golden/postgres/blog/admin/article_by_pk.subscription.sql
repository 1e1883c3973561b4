-- role: admin
-- subscription: article_by_pk (live query, select_by_pk on public.article)
-- query: subscription ($id: Int!) { article_by_pk(id: $id) { id title body author_id status views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article"; filter: none (every row)
--   columns: id, title, body, author_id, status, views, tags, published_on
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('article_by_pk', (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'body', "_article_1"."body", 'author_id', "_article_1"."author_id", 'status', "_article_1"."status", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on")
        FROM "public"."article" AS "_article_1"
        WHERE "_article_1"."id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
