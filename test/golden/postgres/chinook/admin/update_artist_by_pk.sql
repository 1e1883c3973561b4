-- role: admin
-- root field: update_artist_by_pk (update_by_pk on public.artist)
-- query: mutation ($pk_artist_id: Int!, $artist_id: Int, $name: String) { update_artist_by_pk(pk_columns: {artist_id: $pk_artist_id}, _set: {artist_id: $artist_id, name: $name}) { artist_id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."artist"; columns: artist_id, name
--   filter: none (every row); check: none (every row)
--   returning columns: artist_id, name
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $artist_id :: int4
-- $2 = variable $name :: varchar
-- $3 = variable $pk_artist_id :: int4
WITH "_artist_1" AS (UPDATE "public"."artist" AS "_artist_2" SET "artist_id" = ($1)::int4, "name" = ($2)::varchar
  WHERE true AND ("_artist_2"."artist_id" = ($3)::int4) RETURNING "_artist_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('artist_id', "_artist_3"."artist_id", 'name', "_artist_3"."name")
      FROM (
        SELECT "artist_id", "name"
        FROM "_artist_1") AS "_artist_3"
      LIMIT 1))::text, 'null');
