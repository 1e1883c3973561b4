-- role: admin
-- root field: insert_media_type_one (insert_one on public.media_type)
-- query: mutation ($media_type_id: Int, $name: String) { insert_media_type_one(object: {media_type_id: $media_type_id, name: $name}) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."media_type"; columns: media_type_id, name
--   check: none (every row)
--   on conflict: update columns: media_type_id, name; filter: none (every row); check: none (every row)
--   returning columns: media_type_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $media_type_id :: int4
-- $2 = variable $name :: varchar
WITH "_media_type_1" AS (INSERT INTO "public"."media_type" AS "_media_type_2" ("media_type_id", "name") VALUES (($1)::int4, ($2)::varchar) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('media_type_id', "_media_type_3"."media_type_id", 'name', "_media_type_3"."name")
      FROM (
        SELECT "media_type_id", "name"
        FROM "_media_type_1") AS "_media_type_3"
      LIMIT 1))::text, 'null');
