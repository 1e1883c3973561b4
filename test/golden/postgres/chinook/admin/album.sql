-- role: admin
-- root field: album (select on public.album)
-- query: query { album { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."album"; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none
SELECT (json_build_object('album', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('album_id', "_album_1"."album_id", 'title', "_album_1"."title", 'artist_id', "_album_1"."artist_id") AS "__kiln_row"
        FROM "public"."album" AS "_album_1"
        WHERE true) AS "_r_1")))::text;
