-- role: admin
-- root field: author (select on public.author)
-- query: query { author { id name email is_public rating profile createdAt } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: none (every row)
--   columns: id, name, email, is_public, rating, profile, created_at; row limit: none
SELECT (json_build_object('author', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name", 'email', "_author_1"."email", 'is_public', "_author_1"."is_public", 'rating', "_author_1"."rating", 'profile', "_author_1"."profile", 'createdAt', "_author_1"."created_at") AS "__kiln_row"
        FROM "public"."author" AS "_author_1"
        WHERE true) AS "_r_1")))::text;
