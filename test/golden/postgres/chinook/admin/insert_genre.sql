-- role: admin
-- root field: insert_genre (insert on public.genre)
-- query: mutation ($genre_id: Int, $name: String) { insert_genre(objects: [{genre_id: $genre_id, name: $name}]) { affected_rows returning { genre_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."genre"; columns: genre_id, name
--   check: none (every row)
--   on conflict: update columns: genre_id, name; filter: none (every row); check: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $genre_id :: int4
-- $2 = variable $name :: varchar
WITH "_genre_1" AS (INSERT INTO "public"."genre" AS "_genre_2" ("genre_id", "name") VALUES (($1)::int4, ($2)::varchar) RETURNING *) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_genre_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('genre_id', "_genre_3"."genre_id", 'name', "_genre_3"."name")), '[]'::json)
        FROM (
          SELECT "genre_id", "name"
          FROM "_genre_1") AS "_genre_3")))::text, 'null');
