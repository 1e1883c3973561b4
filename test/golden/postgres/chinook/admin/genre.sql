-- role: admin
-- root field: genre (select on public.genre)
-- query: query { genre { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."genre"; filter: none (every row)
--   columns: genre_id, name; row limit: none
SELECT (json_build_object('genre', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name") AS "__kiln_row"
        FROM "public"."genre" AS "_genre_1"
        WHERE true) AS "_r_1")))::text;
