-- role: admin
-- root field: delete_media_type_by_pk (delete_by_pk on public.media_type)
-- query: mutation ($pk_media_type_id: Int!) { delete_media_type_by_pk(media_type_id: $pk_media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."media_type"; filter: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_media_type_id :: int4
WITH "_media_type_1" AS (DELETE
  FROM "public"."media_type" AS "_media_type_2"
  WHERE true AND ("_media_type_2"."media_type_id" = ($1)::int4) RETURNING "_media_type_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('media_type_id', "_media_type_3"."media_type_id", 'name', "_media_type_3"."name")
      FROM (
        SELECT "media_type_id", "name"
        FROM "_media_type_1") AS "_media_type_3"
      LIMIT 1))::text, 'null');
