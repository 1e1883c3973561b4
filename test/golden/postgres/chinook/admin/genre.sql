-- role: admin
-- root field: genre (select on public.genre)
-- query: query { genre { genre_id name } }
SELECT (json_build_object('genre', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name") AS "__kiln_row"
        FROM "public"."genre" AS "_genre_1"
        WHERE true) AS "_r_1")))::text;
