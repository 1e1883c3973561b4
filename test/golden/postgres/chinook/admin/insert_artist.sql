-- role: admin
-- root field: insert_artist (insert on public.artist)
-- query: mutation ($artist_id: Int, $name: String) { insert_artist(objects: [{artist_id: $artist_id, name: $name}]) { affected_rows returning { artist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."artist"; columns: artist_id, name
--   check: none (every row)
--   on conflict: update columns: artist_id, name; filter: none (every row); check: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $artist_id :: int4
-- $2 = variable $name :: varchar
WITH "_artist_1" AS (INSERT INTO "public"."artist" AS "_artist_2" ("artist_id", "name") VALUES (($1)::int4, ($2)::varchar) RETURNING *) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_artist_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('artist_id', "_artist_3"."artist_id", 'name', "_artist_3"."name")), '[]'::json)
        FROM (
          SELECT "artist_id", "name"
          FROM "_artist_1") AS "_artist_3")))::text, 'null');
