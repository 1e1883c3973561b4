-- role: admin
-- root field: update_playlist_track_by_pk (update_by_pk on public.playlist_track)
-- query: mutation ($pk_playlist_id: Int!, $pk_track_id: Int!, $playlist_id: Int, $track_id: Int) { update_playlist_track_by_pk(pk_columns: {playlist_id: $pk_playlist_id, track_id: $pk_track_id}, _set: {playlist_id: $playlist_id, track_id: $track_id}) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."playlist_track"; columns: playlist_id, track_id
--   filter: none (every row); check: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $playlist_id :: int4
-- $2 = variable $track_id :: int4
-- $3 = variable $pk_playlist_id :: int4
-- $4 = variable $pk_track_id :: int4
WITH "_playlist_track_1" AS (UPDATE "public"."playlist_track" AS "_playlist_track_2" SET "playlist_id" = ($1)::int4, "track_id" = ($2)::int4
  WHERE true AND (("_playlist_track_2"."playlist_id" = ($3)::int4) AND ("_playlist_track_2"."track_id" = ($4)::int4)) RETURNING "_playlist_track_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('playlist_id', "_playlist_track_3"."playlist_id", 'track_id', "_playlist_track_3"."track_id")
      FROM (
        SELECT "playlist_id", "track_id"
        FROM "_playlist_track_1") AS "_playlist_track_3"
      LIMIT 1))::text, 'null');
