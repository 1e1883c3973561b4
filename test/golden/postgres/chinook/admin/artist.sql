-- role: admin
-- root field: artist (select on public.artist)
-- query: query { artist { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."artist"; filter: none (every row)
--   columns: artist_id, name; row limit: none
SELECT (json_build_object('artist', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('artist_id', "_artist_1"."artist_id", 'name', "_artist_1"."name") AS "__kiln_row"
        FROM "public"."artist" AS "_artist_1"
        WHERE true) AS "_r_1")))::text;
