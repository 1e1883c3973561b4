-- role: admin
-- root field: delete_genre_by_pk (delete_by_pk on public.genre)
-- query: mutation ($pk_genre_id: Int!) { delete_genre_by_pk(genre_id: $pk_genre_id) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."genre"; filter: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_genre_id :: int4
WITH "_genre_1" AS (DELETE
  FROM "public"."genre" AS "_genre_2"
  WHERE true AND ("_genre_2"."genre_id" = ($1)::int4) RETURNING "_genre_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('genre_id', "_genre_3"."genre_id", 'name', "_genre_3"."name")
      FROM (
        SELECT "genre_id", "name"
        FROM "_genre_1") AS "_genre_3"
      LIMIT 1))::text, 'null');
