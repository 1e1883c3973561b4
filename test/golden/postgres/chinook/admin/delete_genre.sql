-- role: admin
-- root field: delete_genre (delete on public.genre)
-- query: mutation { delete_genre(where: {}) { affected_rows returning { genre_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."genre"; filter: none (every row)
--   returning columns: genre_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_genre_1" AS (DELETE
  FROM "public"."genre" AS "_genre_2"
  WHERE true AND true RETURNING "_genre_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_genre_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('genre_id', "_genre_3"."genre_id", 'name', "_genre_3"."name")), '[]'::json)
        FROM (
          SELECT "genre_id", "name"
          FROM "_genre_1") AS "_genre_3")))::text, 'null');
