-- role: admin
-- root field: update_genre_by_pk (update_by_pk on public.genre)
-- query: mutation ($pk_genre_id: Int!, $genre_id: Int, $name: String) { update_genre_by_pk(pk_columns: {genre_id: $pk_genre_id}, _set: {genre_id: $genre_id, name: $name}) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."genre"; columns: genre_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $genre_id :: int4
-- $2 = variable $name :: varchar
-- $3 = variable $pk_genre_id :: int4
WITH "_genre_1" AS (UPDATE "public"."genre" AS "_genre_2" SET "genre_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND ("_genre_2"."genre_id" = ($3)::int4) RETURNING "_genre_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('genre_id', "_genre_3"."genre_id", 'name', "_genre_3"."name")
      FROM (
        SELECT "genre_id", "name"
        FROM "_genre_1") AS "_genre_3"
      LIMIT 1))::text, 'null');
