-- role: admin
-- subscription: media_type_aggregate (live query, select_aggregate on public.media_type)
-- query: subscription { media_type_aggregate { aggregate { count } nodes { media_type_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."media_type"; filter: none (every row)
--   columns: media_type_id, name; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('media_type_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('media_type_id', "_media_type_1"."media_type_id", 'name', "_media_type_1"."name") AS "__kiln_row0"
          FROM "public"."media_type" AS "_media_type_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
