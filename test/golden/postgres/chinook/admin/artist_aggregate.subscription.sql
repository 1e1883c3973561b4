-- role: admin
-- subscription: artist_aggregate (live query, select_aggregate on public.artist)
-- query: subscription { artist_aggregate { aggregate { count } nodes { artist_id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."artist"; filter: none (every row)
--   columns: artist_id, name; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('artist_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('artist_id', "_artist_1"."artist_id", 'name', "_artist_1"."name") AS "__kiln_row0"
          FROM "public"."artist" AS "_artist_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
