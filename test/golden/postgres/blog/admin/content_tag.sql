-- role: admin
-- root field: content_tag (select on content.tag)
-- query: query { content_tag { id label } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."tag"; filter: none (every row)
--   columns: id, label; row limit: none
SELECT (json_build_object('content_tag', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_tag_1"."id", 'label', "_tag_1"."label") AS "__kiln_row"
        FROM "content"."tag" AS "_tag_1"
        WHERE true) AS "_r_1")))::text;
