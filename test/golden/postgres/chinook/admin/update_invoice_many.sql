-- role: admin
-- root field: update_invoice_many (update_many on public.invoice)
-- query: mutation ($invoice_id: Int, $customer_id: Int, $invoice_date: timestamp, $billing_address: String, $billing_city: String, $billing_state: String, $billing_country: String, $billing_postal_code: String, $total: numeric) { update_invoice_many(updates: [{where: {}, _set: {invoice_id: $invoice_id, customer_id: $customer_id, invoice_date: $invoice_date, billing_address: $billing_address, billing_city: $billing_city, billing_state: $billing_state, billing_country: $billing_country, billing_postal_code: $billing_postal_code, total: $total}}]) { affected_rows returning { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."invoice"; columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
--   filter: none (every row); check: none (every row)
--   returning columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $invoice_id :: int4
-- $2 = variable $customer_id :: int4
-- $3 = variable $invoice_date :: timestamp
-- $4 = variable $billing_address :: varchar
-- $5 = variable $billing_city :: varchar
-- $6 = variable $billing_state :: varchar
-- $7 = variable $billing_country :: varchar
-- $8 = variable $billing_postal_code :: varchar
-- $9 = variable $total :: numeric
WITH "_invoice_1" AS (UPDATE "public"."invoice" AS "_invoice_2" SET "invoice_id" = ($1)::int4, "customer_id" = ($2)::int4, "invoice_date" = ($3)::timestamp, "billing_address" = ($4)::varchar, "billing_city" = ($5)::varchar, "billing_state" = ($6)::varchar, "billing_country" = ($7)::varchar, "billing_postal_code" = ($8)::varchar, "total" = ($9)::numeric
  WHERE true AND true RETURNING "_invoice_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_invoice_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('invoice_id', "_invoice_3"."invoice_id", 'customer_id', "_invoice_3"."customer_id", 'invoice_date', "_invoice_3"."invoice_date", 'billing_address', "_invoice_3"."billing_address", 'billing_city', "_invoice_3"."billing_city", 'billing_state', "_invoice_3"."billing_state", 'billing_country', "_invoice_3"."billing_country", 'billing_postal_code', "_invoice_3"."billing_postal_code", 'total', "_invoice_3"."total")), '[]'::json)
        FROM (
          SELECT "invoice_id", "customer_id", "invoice_date", "billing_address", "billing_city", "billing_state", "billing_country", "billing_postal_code", "total"
          FROM "_invoice_1") AS "_invoice_3")))::text, 'null');
