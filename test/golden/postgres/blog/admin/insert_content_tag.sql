-- role: admin
-- root field: insert_content_tag (insert on content.tag)
-- query: mutation ($id: Int, $label: String) { insert_content_tag(objects: [{id: $id, label: $label}]) { affected_rows returning { id label } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "content"."tag"; columns: id, label
--   check: none (every row)
--   on conflict: update columns: id, label; filter: none (every row); check: none (every row)
--   returning columns: id, label
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $id :: int4
-- $2 = variable $label :: varchar
WITH "_tag_1" AS (INSERT INTO "content"."tag" AS "_tag_2" ("id", "label") VALUES (($1)::int4, ($2)::varchar) RETURNING *) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_tag_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('id', "_tag_3"."id", 'label', "_tag_3"."label")), '[]'::json)
        FROM (
          SELECT "id", "label"
          FROM "_tag_1") AS "_tag_3")))::text, 'null');
