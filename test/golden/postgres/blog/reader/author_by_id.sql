-- role: reader
-- root field: author_by_id (select_by_pk on public.author)
-- query: query ($id: Int!) { author_by_id(id: $id) { id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."is_public" = {value true :: bool})
--   columns: id, name
-- $1 = variable $id :: int4
-- $2 = constant true :: bool
SELECT (json_build_object('author_by_id', (
      SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name")
      FROM "public"."author" AS "_author_1"
      WHERE "_author_1"."id" = ($1)::int4 AND ("_author_1"."is_public" = ($2)::bool)
      LIMIT 1)))::text;
