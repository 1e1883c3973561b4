-- role: admin
-- root field: update_artist_many (update_many on public.artist)
-- query: mutation ($artist_id: Int, $name: String) { update_artist_many(updates: [{where: {}, _set: {artist_id: $artist_id, name: $name}}]) { affected_rows returning { artist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."artist"; columns: artist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $artist_id :: int4
-- $2 = variable $name :: varchar
WITH "_artist_1" AS (UPDATE "public"."artist" AS "_artist_2" SET "artist_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND true RETURNING "_artist_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_artist_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('artist_id', "_artist_3"."artist_id", 'name', "_artist_3"."name")), '[]'::json)
        FROM (
          SELECT "artist_id", "name"
          FROM "_artist_1") AS "_artist_3")))::text, 'null');
