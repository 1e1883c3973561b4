-- role: admin
-- subscription: genre_by_pk (live query, select_by_pk on public.genre)
-- query: subscription ($genre_id: Int!) { genre_by_pk(genre_id: $genre_id) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."genre"; filter: none (every row)
--   columns: genre_id, name
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $genre_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('genre_by_pk', (
        SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name")
        FROM "public"."genre" AS "_genre_1"
        WHERE "_genre_1"."genre_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
