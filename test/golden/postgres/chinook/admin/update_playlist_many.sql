-- role: admin
-- root field: update_playlist_many (update_many on public.playlist)
-- query: mutation ($playlist_id: Int, $name: String) { update_playlist_many(updates: [{where: {}, _set: {playlist_id: $playlist_id, name: $name}}]) { affected_rows returning { playlist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."playlist"; columns: playlist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $playlist_id :: int4
-- $2 = variable $name :: varchar
WITH "_playlist_1" AS (UPDATE "public"."playlist" AS "_playlist_2" SET "playlist_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND true RETURNING "_playlist_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_playlist_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('playlist_id', "_playlist_3"."playlist_id", 'name', "_playlist_3"."name")), '[]'::json)
        FROM (
          SELECT "playlist_id", "name"
          FROM "_playlist_1") AS "_playlist_3")))::text, 'null');
