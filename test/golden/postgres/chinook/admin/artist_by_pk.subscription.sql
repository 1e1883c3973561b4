-- role: admin
-- subscription: artist_by_pk (live query, select_by_pk on public.artist)
-- query: subscription ($artist_id: Int!) { artist_by_pk(artist_id: $artist_id) { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."artist"; filter: none (every row)
--   columns: artist_id, name
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $artist_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('artist_by_pk', (
        SELECT json_build_object('artist_id', "_artist_1"."artist_id", 'name', "_artist_1"."name")
        FROM "public"."artist" AS "_artist_1"
        WHERE "_artist_1"."artist_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
