-- role: admin
-- root field: genre_by_pk (select_by_pk on public.genre)
-- query: query ($genre_id: Int!) { genre_by_pk(genre_id: $genre_id) { genre_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."genre"; filter: none (every row)
--   columns: genre_id, name
-- $1 = variable $genre_id :: int4
SELECT (json_build_object('genre_by_pk', (
      SELECT json_build_object('genre_id', "_genre_1"."genre_id", 'name', "_genre_1"."name")
      FROM "public"."genre" AS "_genre_1"
      WHERE "_genre_1"."genre_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
