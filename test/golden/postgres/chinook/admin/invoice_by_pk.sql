-- role: admin
-- root field: invoice_by_pk (select_by_pk on public.invoice)
-- query: query ($invoice_id: Int!) { invoice_by_pk(invoice_id: $invoice_id) { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice"; filter: none (every row)
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- $1 = variable $invoice_id :: int4
SELECT (json_build_object('invoice_by_pk', (
      SELECT json_build_object('invoice_id', "_invoice_1"."invoice_id", 'customer_id', "_invoice_1"."customer_id", 'invoice_date', "_invoice_1"."invoice_date", 'billing_address', "_invoice_1"."billing_address", 'billing_city', "_invoice_1"."billing_city", 'billing_state', "_invoice_1"."billing_state", 'billing_country', "_invoice_1"."billing_country", 'billing_postal_code', "_invoice_1"."billing_postal_code", 'total', "_invoice_1"."total")
      FROM "public"."invoice" AS "_invoice_1"
      WHERE "_invoice_1"."invoice_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
