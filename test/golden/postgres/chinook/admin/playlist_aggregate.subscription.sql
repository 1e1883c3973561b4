-- role: admin
-- subscription: playlist_aggregate (live query, select_aggregate on public.playlist)
-- query: subscription { playlist_aggregate { aggregate { count } nodes { playlist_id name } } }
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('playlist_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('playlist_id', "_playlist_1"."playlist_id", 'name', "_playlist_1"."name") AS "__kiln_row0"
          FROM "public"."playlist" AS "_playlist_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
