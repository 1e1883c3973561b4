-- role: user
-- root field: author (select on public.author)
-- query: query { author { id name email rating profile } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."id" = {session x-svc-user-id :: int4})
--   columns: id, name, email, rating, profile; row limit: none
-- $1 = session x-svc-user-id :: int4
SELECT (json_build_object('author', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile") AS "__kiln_row"
        FROM "public"."author" AS "_author_1"
        WHERE ("_author_1"."id" = ($1)::int4)) AS "_r_1")))::text;
