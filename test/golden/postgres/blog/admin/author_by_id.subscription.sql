-- role: admin
-- subscription: author_by_id (live query, select_by_pk on public.author)
-- query: subscription ($id: Int!) { author_by_id(id: $id) { id name email is_public rating profile createdAt } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: none (every row)
--   columns: id, name, email, is_public, rating, profile, created_at
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('author_by_id', (
        SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'is_public', "_author_1"."is_public", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile", 'createdAt', "_author_1"."created_at")
        FROM "public"."author" AS "_author_1"
        WHERE "_author_1"."id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
