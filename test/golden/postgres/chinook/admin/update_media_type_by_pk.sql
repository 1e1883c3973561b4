-- role: admin
-- root field: update_media_type_by_pk (update_by_pk on public.media_type)
-- query: mutation ($pk_media_type_id: Int!, $media_type_id: Int, $name: String) { update_media_type_by_pk(pk_columns: {media_type_id: $pk_media_type_id}, _set: {media_type_id: $media_type_id, name: $name}) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."media_type"; columns: media_type_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $media_type_id :: int4
-- $2 = variable $name :: varchar
-- $3 = variable $pk_media_type_id :: int4
WITH "_media_type_1" AS (UPDATE "public"."media_type" AS "_media_type_2" SET "media_type_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND ("_media_type_2"."media_type_id" = ($3)::int4) RETURNING "_media_type_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('media_type_id', "_media_type_3"."media_type_id", 'name', "_media_type_3"."name")
      FROM (
        SELECT "media_type_id", "name"
        FROM "_media_type_1") AS "_media_type_3"
      LIMIT 1))::text, 'null');
