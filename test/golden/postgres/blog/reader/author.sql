-- role: reader
-- root field: author (select on public.author)
-- query: query { author { id name } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."is_public" = {value true :: bool})
--   columns: id, name; row limit: none
-- $1 = constant true :: bool
SELECT (json_build_object('author', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name") AS "__kiln_row"
        FROM "public"."author" AS "_author_1"
        WHERE ("_author_1"."is_public" = ($1)::bool)) AS "_r_1")))::text;
