-- role: user
-- root field: author_by_id (select_by_pk on public.author)
-- query: query ($id: Int!) { author_by_id(id: $id) { id name email rating profile } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."id" = {session x-svc-user-id :: int4})
--   columns: id, name, email, rating, profile
-- $1 = variable $id :: int4
-- $2 = session x-svc-user-id :: int4
SELECT (json_build_object('author_by_id', (
      SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile")
      FROM "public"."author" AS "_author_1"
      WHERE "_author_1"."id" = ($1)::int4 AND ("_author_1"."id" = ($2)::int4)
      LIMIT 1)))::text;
