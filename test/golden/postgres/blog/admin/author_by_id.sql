-- role: admin
-- root field: author_by_id (select_by_pk on public.author)
-- query: query ($id: Int!) { author_by_id(id: $id) { id name email is_public rating profile createdAt } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: none (every row)
--   columns: id, name, email, is_public, rating, profile, created_at
-- $1 = variable $id :: int4
SELECT (json_build_object('author_by_id', (
      SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'is_public', "_author_1"."is_public", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile", 'createdAt', "_author_1"."created_at")
      FROM "public"."author" AS "_author_1"
      WHERE "_author_1"."id" = ($1)::int4 AND true
      LIMIT 1)))::text;
