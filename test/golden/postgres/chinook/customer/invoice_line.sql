-- role: customer
-- root field: invoice_line (select on public.invoice_line)
-- query: query { invoice_line { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice_line"; filter: EXISTS (SELECT 1 FROM "public"."invoice" AS {alias invoice #1} WHERE {alias invoice #1}."invoice_id" = {row}."invoice_id" AND ({alias invoice #1}."customer_id" = {session x-svc-customer-id :: int4}))
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none
-- $1 = session x-svc-customer-id :: int4
SELECT (json_build_object('invoice_line', (
      SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
      FROM (
        SELECT json_build_object('invoice_line_id', "_invoice_line_1"."invoice_line_id", 'invoice_id', "_invoice_line_1"."invoice_id", 'track_id', "_invoice_line_1"."track_id", 'unit_price', "_invoice_line_1"."unit_price", 'quantity', "_invoice_line_1"."quantity") AS "__kiln_row"
        FROM "public"."invoice_line" AS "_invoice_line_1"
        WHERE EXISTS (
          SELECT 1
          FROM "public"."invoice" AS "_invoice_1"
          WHERE "_invoice_1"."invoice_id" = "_invoice_line_1"."invoice_id" AND ("_invoice_1"."customer_id" = ($1)::int4))) AS "_r_1")))::text;
