-- role: admin
-- subscription: playlist_track_by_pk (live query, select_by_pk on public.playlist_track)
-- query: subscription ($playlist_id: Int!, $track_id: Int!) { playlist_track_by_pk(playlist_id: $playlist_id, track_id: $track_id) { playlist_id track_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist_track"; filter: none (every row)
--   columns: playlist_id, track_id
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $playlist_id, one per cohort :: text[] (read as int4)
-- $3 = variable $track_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('playlist_track_by_pk', (
        SELECT json_build_object('playlist_id', "_playlist_track_1"."playlist_id", 'track_id', "_playlist_track_1"."track_id")
        FROM "public"."playlist_track" AS "_playlist_track_1"
        WHERE "_playlist_track_1"."playlist_id" = ("_subs"."p1")::int4 AND "_playlist_track_1"."track_id" = ("_subs"."p2")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[], $3::text[]) AS "_subs"("cohort_id", "p1", "p2");
