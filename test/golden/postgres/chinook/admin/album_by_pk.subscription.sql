-- role: admin
-- subscription: album_by_pk (live query, select_by_pk on public.album)
-- query: subscription ($album_id: Int!) { album_by_pk(album_id: $album_id) { album_id title artist_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."album"; filter: none (every row)
--   columns: album_id, title, artist_id
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $album_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('album_by_pk', (
        SELECT json_build_object('album_id', "_album_1"."album_id", 'title', "_album_1"."title", 'artist_id', "_album_1"."artist_id")
        FROM "public"."album" AS "_album_1"
        WHERE "_album_1"."album_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
