-- role: admin
-- root field: delete_media_type (delete on public.media_type)
-- query: mutation { delete_media_type(where: {}) { affected_rows returning { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."media_type"; filter: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_media_type_1" AS (DELETE
  FROM "public"."media_type" AS "_media_type_2"
  WHERE true AND true RETURNING "_media_type_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_media_type_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('media_type_id', "_media_type_3"."media_type_id", 'name', "_media_type_3"."name")), '[]'::json)
        FROM (
          SELECT "media_type_id", "name"
          FROM "_media_type_1") AS "_media_type_3")))::text, 'null');
