-- role: admin
-- root field: invoice_line_by_pk (select_by_pk on public.invoice_line)
-- query: query ($invoice_line_id: Int!) { invoice_line_by_pk(invoice_line_id: $invoice_line_id) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice_line"; filter: none (every row)
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- $1 = variable $invoice_line_id :: int4
SELECT (json_build_object('invoice_line_by_pk', (
      SELECT json_build_object('invoice_line_id', "_invoice_line_1"."invoice_line_id", 'invoice_id', "_invoice_line_1"."invoice_id", 'track_id', "_invoice_line_1"."track_id", 'unit_price', "_invoice_line_1"."unit_price", 'quantity', "_invoice_line_1"."quantity")
      FROM "public"."invoice_line" AS "_invoice_line_1"
      WHERE "_invoice_line_1"."invoice_line_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
