-- role: admin
-- subscription: album_aggregate (live query, select_aggregate on public.album)
-- query: subscription { album_aggregate { aggregate { count } nodes { album_id title artist_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."album"; filter: none (every row)
--   columns: album_id, title, artist_id; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('album_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('album_id', "_album_1"."album_id", 'title', "_album_1"."title", 'artist_id', "_album_1"."artist_id") AS "__kiln_row0"
          FROM "public"."album" AS "_album_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
