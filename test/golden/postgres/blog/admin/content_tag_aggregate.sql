-- role: admin
-- root field: content_tag_aggregate (select_aggregate on content.tag)
-- query: query { content_tag_aggregate { aggregate { count } nodes { id label } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."tag"; filter: none (every row)
--   columns: id, label; row limit: none; aggregations: yes
SELECT (json_build_object('content_tag_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('id', "_tag_1"."id", 'label', "_tag_1"."label") AS "__kiln_row0"
        FROM "content"."tag" AS "_tag_1"
        WHERE true) AS "_r_1")))::text;
