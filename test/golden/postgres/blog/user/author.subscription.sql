-- role: user
-- subscription: author (live query, select on public.author)
-- query: subscription { author { id name email rating profile } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."id" = {session x-svc-user-id :: int4})
--   columns: id, name, email, rating, profile; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = session x-svc-user-id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('author', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile") AS "__kiln_row"
          FROM "public"."author" AS "_author_1"
          WHERE ("_author_1"."id" = ("_subs"."p1")::int4)) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
