-- role: admin
-- root field: delete_content_tag (delete on content.tag)
-- query: mutation { delete_content_tag(where: {}) { affected_rows returning { id label } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "content"."tag"; filter: none (every row)
--   returning columns: id, label
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_tag_1" AS (DELETE
  FROM "content"."tag" AS "_tag_2"
  WHERE true AND true RETURNING "_tag_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_tag_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_tag_3"."id", 'label', "_tag_3"."label")), '[]'::json)
        FROM (
          SELECT "id", "label"
          FROM "_tag_1") AS "_tag_3")))::text, 'null');
