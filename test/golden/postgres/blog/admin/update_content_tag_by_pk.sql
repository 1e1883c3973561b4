-- role: admin
-- root field: update_content_tag_by_pk (update_by_pk on content.tag)
-- query: mutation ($pk_id: Int!, $id: Int, $label: String) { update_content_tag_by_pk(pk_columns: {id: $pk_id}, _set: {id: $id, label: $label}) { id label } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "content"."tag"; columns: id, label
--   filter: none (every row); check: none (every row)
--   returning columns: id, label
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $id :: int4
-- $2 = variable $label :: varchar
-- $3 = variable $pk_id :: int4
WITH "_tag_1" AS (UPDATE "content"."tag" AS "_tag_2" SET "id" = ($1)::int4, "label" = ($2)::varchar
  WHERE true AND ("_tag_2"."id" = ($3)::int4) RETURNING "_tag_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('id', "_tag_3"."id", 'label', "_tag_3"."label")
      FROM (
        SELECT "id", "label"
        FROM "_tag_1") AS "_tag_3"
      LIMIT 1))::text, 'null');
