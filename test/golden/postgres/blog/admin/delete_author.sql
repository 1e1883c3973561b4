-- role: admin
-- root field: delete_author (delete on public.author)
-- query: mutation { delete_author(where: {}) { affected_rows returning { id name email is_public rating profile createdAt } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."author"; filter: none (every row)
--   returning columns: id, name, email, is_public, rating, profile, created_at
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_author_1" AS (DELETE
  FROM "public"."author" AS "_author_2"
  WHERE true AND true RETURNING "_author_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_author_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_author_3"."id", 'name', "_author_3"."name", 'email', "_author_3"."email", 'is_public', "_author_3"."is_public", 'rating', "_author_3"."rating", 'profile', "_author_3"."profile", 'createdAt', "_author_3"."created_at")), '[]'::json)
        FROM (
          SELECT "id", "name", "email", "is_public", "rating", "profile", "created_at"
          FROM "_author_1") AS "_author_3")))::text, 'null');
