-- role: admin
-- root field: update_author (update on public.author)
-- query: mutation ($id: Int, $name: String, $email: String, $is_public: Boolean, $rating: numeric, $profile: jsonb, $createdAt: timestamptz) { update_author(where: {}, _set: {id: $id, name: $name, email: $email, is_public: $is_public, rating: $rating, profile: $profile, createdAt: $createdAt}) { affected_rows returning { id name email is_public rating profile createdAt } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."author"; columns: id, name, email, is_public, rating, profile, created_at
--   filter: none (every row); check: none (every row)
--   returning columns: id, name, email, is_public, rating, profile, created_at
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $id :: int4
-- $2 = variable $name :: text
-- $3 = variable $email :: text
-- $4 = variable $is_public :: bool
-- $5 = variable $rating :: numeric
-- $6 = variable $profile :: jsonb
-- $7 = variable $createdAt :: timestamptz
WITH "_author_1" AS (UPDATE "public"."author" AS "_author_2" SET "id" = ($1)::int4, "name" = ($2)::text, "email" = ($3)::text, "is_public" = ($4)::bool, "rating" = ($5)::numeric, "profile" = ($6)::jsonb, "created_at" = ($7)::timestamptz
  WHERE true AND true RETURNING "_author_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_author_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_author_3"."id", 'name', "_author_3"."name", 'email', "_author_3"."email", 'is_public', "_author_3"."is_public", 'rating', "_author_3"."rating", 'profile', "_author_3"."profile", 'createdAt', "_author_3"."created_at")), '[]'::json)
        FROM (
          SELECT "id", "name", "email", "is_public", "rating", "profile", "created_at"
          FROM "_author_1") AS "_author_3")))::text, 'null');
