-- role: admin
-- root field: delete_content_tag_by_pk (delete_by_pk on content.tag)
-- query: mutation ($pk_id: Int!) { delete_content_tag_by_pk(id: $pk_id) { id label } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "content"."tag"; filter: none (every row)
--   returning columns: id, label
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_id :: int4
WITH "_tag_1" AS (DELETE
  FROM "content"."tag" AS "_tag_2"
  WHERE true AND ("_tag_2"."id" = ($1)::int4) RETURNING "_tag_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('id', "_tag_3"."id", 'label', "_tag_3"."label")
      FROM (
        SELECT "id", "label"
        FROM "_tag_1") AS "_tag_3"
      LIMIT 1))::text, 'null');
