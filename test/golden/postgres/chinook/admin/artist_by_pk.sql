-- role: admin
-- root field: artist_by_pk (select_by_pk on public.artist)
-- query: query ($artist_id: Int!) { artist_by_pk(artist_id: $artist_id) { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."artist"; filter: none (every row)
--   columns: artist_id, name
-- $1 = variable $artist_id :: int4
SELECT (json_build_object('artist_by_pk', (
      SELECT json_build_object('artist_id', "_artist_1"."artist_id", 'name', "_artist_1"."name")
      FROM "public"."artist" AS "_artist_1"
      WHERE "_artist_1"."artist_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
