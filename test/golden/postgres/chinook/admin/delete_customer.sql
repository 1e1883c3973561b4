-- role: admin
-- root field: delete_customer (delete on public.customer)
-- query: mutation { delete_customer(where: {}) { affected_rows returning { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."customer"; filter: none (every row)
--   returning columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_customer_1" AS (DELETE
  FROM "public"."customer" AS "_customer_2"
  WHERE true AND true RETURNING "_customer_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_customer_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('customer_id', "_customer_3"."customer_id", 'first_name', "_customer_3"."first_name", 'last_name', "_customer_3"."last_name", 'company', "_customer_3"."company", 'address', "_customer_3"."address", 'city', "_customer_3"."city", 'state', "_customer_3"."state", 'country', "_customer_3"."country", 'postal_code', "_customer_3"."postal_code", 'phone', "_customer_3"."phone", 'fax', "_customer_3"."fax", 'email', "_customer_3"."email", 'support_rep_id', "_customer_3"."support_rep_id")), '[]'::json)
        FROM (
          SELECT "customer_id", "first_name", "last_name", "company", "address", "city", "state", "country", "postal_code", "phone", "fax", "email", "support_rep_id"
          FROM "_customer_1") AS "_customer_3")))::text, 'null');
