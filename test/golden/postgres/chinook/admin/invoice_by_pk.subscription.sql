-- role: admin
-- subscription: invoice_by_pk (live query, select_by_pk on public.invoice)
-- query: subscription ($invoice_id: Int!) { invoice_by_pk(invoice_id: $invoice_id) { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice"; filter: none (every row)
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $invoice_id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('invoice_by_pk', (
        SELECT json_build_object('invoice_id', "_invoice_1"."invoice_id", 'customer_id', "_invoice_1"."customer_id", 'invoice_date', "_invoice_1"."invoice_date", 'billing_address', "_invoice_1"."billing_address", 'billing_city', "_invoice_1"."billing_city", 'billing_state', "_invoice_1"."billing_state", 'billing_country', "_invoice_1"."billing_country", 'billing_postal_code', "_invoice_1"."billing_postal_code", 'total', "_invoice_1"."total")
        FROM "public"."invoice" AS "_invoice_1"
        WHERE "_invoice_1"."invoice_id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
