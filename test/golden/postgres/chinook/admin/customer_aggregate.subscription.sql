-- role: admin
-- subscription: customer_aggregate (live query, select_aggregate on public.customer)
-- query: subscription { customer_aggregate { aggregate { count } nodes { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."customer"; filter: none (every row)
--   columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('customer_aggregate', (
        SELECT json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(json_agg("_r_1"."__kiln_row0"), '[]'::json))
        FROM (
          SELECT json_build_object('customer_id', "_customer_1"."customer_id", 'first_name', "_customer_1"."first_name", 'last_name', "_customer_1"."last_name", 'company', "_customer_1"."company", 'address', "_customer_1"."address", 'city', "_customer_1"."city", 'state', "_customer_1"."state", 'country', "_customer_1"."country", 'postal_code', "_customer_1"."postal_code", 'phone', "_customer_1"."phone", 'fax', "_customer_1"."fax", 'email', "_customer_1"."email", 'support_rep_id', "_customer_1"."support_rep_id") AS "__kiln_row0"
          FROM "public"."customer" AS "_customer_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
