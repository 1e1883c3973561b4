-- role: admin
-- root field: delete_playlist_by_pk (delete_by_pk on public.playlist)
-- query: mutation ($pk_playlist_id: Int!) { delete_playlist_by_pk(playlist_id: $pk_playlist_id) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."playlist"; filter: none (every row)
--   returning columns: playlist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_playlist_id :: int4
WITH "_playlist_1" AS (DELETE
  FROM "public"."playlist" AS "_playlist_2"
  WHERE true AND ("_playlist_2"."playlist_id" = ($1)::int4) RETURNING "_playlist_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('playlist_id', "_playlist_3"."playlist_id", 'name', "_playlist_3"."name")
      FROM (
        SELECT "playlist_id", "name"
        FROM "_playlist_1") AS "_playlist_3"
      LIMIT 1))::text, 'null');
