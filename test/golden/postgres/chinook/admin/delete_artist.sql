-- role: admin
-- root field: delete_artist (delete on public.artist)
-- query: mutation { delete_artist(where: {}) { affected_rows returning { artist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."artist"; filter: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_artist_1" AS (DELETE
  FROM "public"."artist" AS "_artist_2"
  WHERE true AND true RETURNING "_artist_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_artist_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('artist_id', "_artist_3"."artist_id", 'name', "_artist_3"."name")), '[]'::json)
        FROM (
          SELECT "artist_id", "name"
          FROM "_artist_1") AS "_artist_3")))::text, 'null');
