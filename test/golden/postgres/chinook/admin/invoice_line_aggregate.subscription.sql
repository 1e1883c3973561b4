-- role: admin
-- subscription: invoice_line_aggregate (live query, select_aggregate on public.invoice_line)
-- query: subscription { invoice_line_aggregate { aggregate { count } nodes { invoice_line_id invoice_id track_id unit_price quantity } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice_line"; filter: none (every row)
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('invoice_line_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('invoice_line_id', "_invoice_line_1"."invoice_line_id", 'invoice_id', "_invoice_line_1"."invoice_id", 'track_id', "_invoice_line_1"."track_id", 'unit_price', "_invoice_line_1"."unit_price", 'quantity', "_invoice_line_1"."quantity") AS "__kiln_row0"
          FROM "public"."invoice_line" AS "_invoice_line_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
