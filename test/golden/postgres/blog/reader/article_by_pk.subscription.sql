-- role: reader
-- subscription: article_by_pk (live query, select_by_pk on public.article)
-- query: subscription ($id: Int!) { article_by_pk(id: $id) { id title views tags published_on } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article"; filter: (({row}."status" = {value "published" :: text}) AND EXISTS (SELECT 1 FROM "public"."author" AS {alias author #1} WHERE {alias author #1}."id" = {row}."author_id" AND ({alias author #1}."is_public" = {value true :: bool})))
--   columns: id, title, views, tags, published_on
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $id, one per cohort :: text[] (read as int4)
-- $3 = constant "published", one per cohort :: text[] (read as text)
-- $4 = constant true, one per cohort :: text[] (read as bool)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('article_by_pk', (
        SELECT json_build_object('id', "_article_1"."id", 'title', "_article_1"."title", 'views', "_article_1"."views", 'tags', "_article_1"."tags", 'published_on', "_article_1"."published_on")
        FROM "public"."article" AS "_article_1"
        WHERE "_article_1"."id" = ("_subs"."p1")::int4 AND (("_article_1"."status" = ("_subs"."p2")::text) AND EXISTS (
            SELECT 1
            FROM "public"."author" AS "_author_1"
            WHERE "_author_1"."id" = "_article_1"."author_id" AND ("_author_1"."is_public" = ("_subs"."p3")::bool)))
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[], $3::text[], $4::text[]) AS "_subs"("cohort_id", "p1", "p2", "p3");
