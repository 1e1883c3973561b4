-- role: admin
-- subscription: media_type_by_pk (live query, select_by_pk on public.media_type)
-- query: subscription ($media_type_id: Int!) { media_type_by_pk(media_type_id: $media_type_id) { media_type_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."media_type"; filter: none (every row)
--   columns: media_type_id, name
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $media_type_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('media_type_by_pk', (
        SELECT json_build_object('media_type_id', "_media_type_1"."media_type_id", 'name', "_media_type_1"."name")
        FROM "public"."media_type" AS "_media_type_1"
        WHERE "_media_type_1"."media_type_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
