-- role: admin
-- subscription: playlist_track (live query, select on public.playlist_track)
-- query: subscription { playlist_track { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist_track"; filter: none (every row)
--   columns: playlist_id, track_id; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('playlist_track', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('playlist_id', "_playlist_track_1"."playlist_id", 'track_id', "_playlist_track_1"."track_id") AS "__kiln_row"
          FROM "public"."playlist_track" AS "_playlist_track_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
