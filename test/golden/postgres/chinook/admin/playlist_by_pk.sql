-- role: admin
-- root field: playlist_by_pk (select_by_pk on public.playlist)
-- query: query ($playlist_id: Int!) { playlist_by_pk(playlist_id: $playlist_id) { playlist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."playlist"; filter: none (every row)
--   columns: playlist_id, name
-- $1 = variable $playlist_id :: int4
SELECT (json_build_object('playlist_by_pk', (
      SELECT json_build_object('playlist_id', "_playlist_1"."playlist_id", 'name', "_playlist_1"."name")
      FROM "public"."playlist" AS "_playlist_1"
      WHERE "_playlist_1"."playlist_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
