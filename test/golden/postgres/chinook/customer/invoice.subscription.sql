-- role: customer
-- subscription: invoice (live query, select on public.invoice)
-- query: subscription { invoice { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."invoice"; filter: ({row}."customer_id" = {session x-svc-customer-id :: int4})
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = session x-svc-customer-id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('invoice', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('invoice_id', "_invoice_1"."invoice_id", 'customer_id', "_invoice_1"."customer_id", 'invoice_date', "_invoice_1"."invoice_date", 'billing_address', "_invoice_1"."billing_address", 'billing_city', "_invoice_1"."billing_city", 'billing_state', "_invoice_1"."billing_state", 'billing_country', "_invoice_1"."billing_country", 'billing_postal_code', "_invoice_1"."billing_postal_code", 'total', "_invoice_1"."total") AS "__kiln_row"
          FROM "public"."invoice" AS "_invoice_1"
          WHERE ("_invoice_1"."customer_id" = ("_subs"."p1")::int4)) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
