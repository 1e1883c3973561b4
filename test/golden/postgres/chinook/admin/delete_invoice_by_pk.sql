-- role: admin
-- root field: delete_invoice_by_pk (delete_by_pk on public.invoice)
-- query: mutation ($pk_invoice_id: Int!) { delete_invoice_by_pk(invoice_id: $pk_invoice_id) { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."invoice"; filter: none (every row)
--   returning columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_invoice_id :: int4
WITH "_invoice_1" AS (DELETE
  FROM "public"."invoice" AS "_invoice_2"
  WHERE true AND ("_invoice_2"."invoice_id" = ($1)::int4) RETURNING "_invoice_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('invoice_id', "_invoice_3"."invoice_id", 'customer_id', "_invoice_3"."customer_id", 'invoice_date', "_invoice_3"."invoice_date", 'billing_address', "_invoice_3"."billing_address", 'billing_city', "_invoice_3"."billing_city", 'billing_state', "_invoice_3"."billing_state", 'billing_country', "_invoice_3"."billing_country", 'billing_postal_code', "_invoice_3"."billing_postal_code", 'total', "_invoice_3"."total")
      FROM (
        SELECT "invoice_id", "customer_id", "invoice_date", "billing_address", "billing_city", "billing_state", "billing_country", "billing_postal_code", "total"
        FROM "_invoice_1") AS "_invoice_3"
      LIMIT 1))::text, 'null');
