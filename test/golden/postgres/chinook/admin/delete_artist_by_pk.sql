-- role: admin
-- root field: delete_artist_by_pk (delete_by_pk on public.artist)
-- query: mutation ($pk_artist_id: Int!) { delete_artist_by_pk(artist_id: $pk_artist_id) { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."artist"; filter: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_artist_id :: int4
WITH "_artist_1" AS (DELETE
  FROM "public"."artist" AS "_artist_2"
  WHERE true AND ("_artist_2"."artist_id" = ($1)::int4) RETURNING "_artist_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('artist_id', "_artist_3"."artist_id", 'name', "_artist_3"."name")
      FROM (
        SELECT "artist_id", "name"
        FROM "_artist_1") AS "_artist_3"
      LIMIT 1))::text, 'null');
