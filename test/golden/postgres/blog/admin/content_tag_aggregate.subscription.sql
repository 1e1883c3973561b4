-- role: admin
-- subscription: content_tag_aggregate (live query, select_aggregate on content.tag)
-- query: subscription { content_tag_aggregate { aggregate { count } nodes { id label } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."tag"; filter: none (every row)
--   columns: id, label; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('content_tag_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('id', "_tag_1"."id", 'label', "_tag_1"."label") AS "__kiln_row0"
          FROM "content"."tag" AS "_tag_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
