-- role: admin
-- root field: article_status_aggregate (select_aggregate on public.article_status)
-- query: query { article_status_aggregate { aggregate { count } nodes { value comment } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article_status"; filter: none (every row)
--   columns: value, comment; row limit: none; aggregations: yes
SELECT (json_build_object('article_status_aggregate', (
      SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
      FROM (
        SELECT json_build_object('value', "_article_status_1"."value", 'comment', "_article_status_1"."comment") AS "__kiln_row0"
        FROM "public"."article_status" AS "_article_status_1"
        WHERE true) AS "_r_1")))::text;
