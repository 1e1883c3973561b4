-- role: reader
-- subscription: author_aggregate (live query, select_aggregate on public.author)
-- query: subscription { author_aggregate { aggregate { count } nodes { id name } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."author"; filter: ({row}."is_public" = {value true :: bool})
--   columns: id, name; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = constant true, one per cohort :: text[] (read as bool)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('author_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name") AS "__kiln_row0"
          FROM "public"."author" AS "_author_1"
          WHERE ("_author_1"."is_public" = ("_subs"."p1")::bool)) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
