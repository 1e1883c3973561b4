-- role: customer
-- subscription: invoice_line (live query, select on public.invoice_line)
-- query: subscription { invoice_line { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice_line"; filter: EXISTS (SELECT 1 FROM "public"."invoice" AS {alias invoice #1} WHERE {alias invoice #1}."invoice_id" = {row}."invoice_id" AND ({alias invoice #1}."customer_id" = {session x-svc-customer-id :: int4}))
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = session x-svc-customer-id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('invoice_line', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('invoice_line_id', "_invoice_line_1"."invoice_line_id", 'invoice_id', "_invoice_line_1"."invoice_id", 'track_id', "_invoice_line_1"."track_id", 'unit_price', "_invoice_line_1"."unit_price", 'quantity', "_invoice_line_1"."quantity") AS "__kiln_row"
          FROM "public"."invoice_line" AS "_invoice_line_1"
          WHERE EXISTS (
            SELECT 1
            FROM "public"."invoice" AS "_invoice_1"
            WHERE "_invoice_1"."invoice_id" = "_invoice_line_1"."invoice_id" AND ("_invoice_1"."customer_id" = ("_subs"."p1")::int4))) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
