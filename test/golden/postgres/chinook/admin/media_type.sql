-- role: admin
-- root field: media_type (select on public.media_type)
-- query: query { media_type { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."media_type"; filter: none (every row)
--   columns: media_type_id, name; row limit: none
SELECT (json_build_object('media_type', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('media_type_id', "_media_type_1"."media_type_id", 'name', "_media_type_1"."name") AS "__kiln_row"
        FROM "public"."media_type" AS "_media_type_1"
        WHERE true) AS "_r_1")))::text;
