-- role: admin
-- root field: update_media_type_many (update_many on public.media_type)
-- query: mutation ($media_type_id: Int, $name: String) { update_media_type_many(updates: [{where: {}, _set: {media_type_id: $media_type_id, name: $name}}]) { affected_rows returning { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."media_type"; columns: media_type_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $media_type_id :: int4
-- $2 = variable $name :: varchar
WITH "_media_type_1" AS (UPDATE "public"."media_type" AS "_media_type_2" SET "media_type_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND true RETURNING "_media_type_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_media_type_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('media_type_id', "_media_type_3"."media_type_id", 'name', "_media_type_3"."name")), '[]'::json)
        FROM (
          SELECT "media_type_id", "name"
          FROM "_media_type_1") AS "_media_type_3")))::text, 'null');
