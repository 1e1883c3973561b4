-- role: user
-- subscription: author_by_id (live query, select_by_pk on public.author)
-- query: subscription ($id: Int!) { author_by_id(id: $id) { id name email rating profile } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."id" = {session x-svc-user-id :: int4})
--   columns: id, name, email, rating, profile
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $id, one per cohort :: text[] (read as int4)
-- $3 = session x-svc-user-id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('author_by_id', (
        SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile")
        FROM "public"."author" AS "_author_1"
        WHERE "_author_1"."id" = ("_subs"."p1")::int4 AND ("_author_1"."id" = ("_subs"."p2")::int4)
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[], $3::text[]) AS "_subs"("cohort_id", "p1", "p2");
