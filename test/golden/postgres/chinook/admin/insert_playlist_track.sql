-- role: admin
-- root field: insert_playlist_track (insert on public.playlist_track)
-- query: mutation ($playlist_id: Int, $track_id: Int) { insert_playlist_track(objects: [{playlist_id: $playlist_id, track_id: $track_id}]) { affected_rows returning { playlist_id track_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."playlist_track"; columns: playlist_id, track_id
--   check: none (every row)
--   on conflict: update columns: playlist_id, track_id; filter: none (every row); check: none (every row)
--   returning columns: playlist_id, track_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $playlist_id :: int4
-- $2 = variable $track_id :: int4
WITH "_playlist_track_1" AS (INSERT INTO "public"."playlist_track" AS "_playlist_track_2" ("playlist_id", "track_id") VALUES (($1)::int4, ($2)::int4) RETURNING *) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_playlist_track_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('playlist_id', "_playlist_track_3"."playlist_id", 'track_id', "_playlist_track_3"."track_id")), '[]'::json)
        FROM (
          SELECT "playlist_id", "track_id"
          FROM "_playlist_track_1") AS "_playlist_track_3")))::text, 'null');
