-- role: admin
-- root field: update_playlist_by_pk (update_by_pk on public.playlist)
-- query: mutation ($pk_playlist_id: Int!, $playlist_id: Int, $name: String) { update_playlist_by_pk(pk_columns: {playlist_id: $pk_playlist_id}, _set: {playlist_id: $playlist_id, name: $name}) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."playlist"; columns: playlist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $playlist_id :: int4
-- $2 = variable $name :: varchar
-- $3 = variable $pk_playlist_id :: int4
WITH "_playlist_1" AS (UPDATE "public"."playlist" AS "_playlist_2" SET "playlist_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND ("_playlist_2"."playlist_id" = ($3)::int4) RETURNING "_playlist_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('playlist_id', "_playlist_3"."playlist_id", 'name', "_playlist_3"."name")
      FROM (
        SELECT "playlist_id", "name"
        FROM "_playlist_1") AS "_playlist_3"
      LIMIT 1))::text, 'null');
