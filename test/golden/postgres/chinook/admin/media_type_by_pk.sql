-- role: admin
-- root field: media_type_by_pk (select_by_pk on public.media_type)
-- query: query ($media_type_id: Int!) { media_type_by_pk(media_type_id: $media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."media_type"; filter: none (every row)
--   columns: media_type_id, name
-- $1 = variable $media_type_id :: int4
SELECT (json_build_object('media_type_by_pk', (
      SELECT json_build_object('media_type_id', "_media_type_1"."media_type_id", 'name', "_media_type_1"."name")
      FROM "public"."media_type" AS "_media_type_1"
      WHERE "_media_type_1"."media_type_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
