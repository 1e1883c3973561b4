-- role: admin
-- root field: content_tag_by_pk (select_by_pk on content.tag)
-- query: query ($id: Int!) { content_tag_by_pk(id: $id) { id label } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."tag"; filter: none (every row)
--   columns: id, label
-- $1 = variable $id :: int4
SELECT (json_build_object('content_tag_by_pk', (
      SELECT json_build_object('id', "_tag_1"."id", 'label', "_tag_1"."label")
      FROM "content"."tag" AS "_tag_1"
      WHERE "_tag_1"."id" = ($1)::int4 AND true
      LIMIT 1)))::text;
