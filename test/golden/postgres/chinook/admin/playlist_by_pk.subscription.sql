-- role: admin
-- subscription: playlist_by_pk (live query, select_by_pk on public.playlist)
-- query: subscription ($playlist_id: Int!) { playlist_by_pk(playlist_id: $playlist_id) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist"; filter: none (every row)
--   columns: playlist_id, name
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $playlist_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('playlist_by_pk', (
        SELECT json_build_object('playlist_id', "_playlist_1"."playlist_id", 'name', "_playlist_1"."name")
        FROM "public"."playlist" AS "_playlist_1"
        WHERE "_playlist_1"."playlist_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
