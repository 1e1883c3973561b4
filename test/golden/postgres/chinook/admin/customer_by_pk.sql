-- role: admin
-- root field: customer_by_pk (select_by_pk on public.customer)
-- query: query ($customer_id: Int!) { customer_by_pk(customer_id: $customer_id) { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."customer"; filter: none (every row)
--   columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- $1 = variable $customer_id :: int4
SELECT (json_build_object('customer_by_pk', (
      SELECT json_build_object('customer_id', "_customer_1"."customer_id", 'first_name', "_customer_1"."first_name", 'last_name', "_customer_1"."last_name", 'company', "_customer_1"."company", 'address', "_customer_1"."address", 'city', "_customer_1"."city", 'state', "_customer_1"."state", 'country', "_customer_1"."country", 'postal_code', "_customer_1"."postal_code", 'phone', "_customer_1"."phone", 'fax', "_customer_1"."fax", 'email', "_customer_1"."email", 'support_rep_id', "_customer_1"."support_rep_id")
      FROM "public"."customer" AS "_customer_1"
      WHERE "_customer_1"."customer_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
