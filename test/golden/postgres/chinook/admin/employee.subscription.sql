-- role: admin
-- subscription: employee (live query, select on public.employee)
-- query: subscription { employee { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."employee"; filter: none (every row)
--   columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email; row limit: none
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('employee', (
        SELECT coalesce(json_agg("_r_1"."__kiln_row"), '[]'::json)
        FROM (
          SELECT json_build_object('employee_id', "_employee_1"."employee_id", 'last_name', "_employee_1"."last_name", 'first_name', "_employee_1"."first_name", 'title', "_employee_1"."title", 'reports_to', "_employee_1"."reports_to", 'birth_date', "_employee_1"."birth_date", 'hire_date', "_employee_1"."hire_date", 'address', "_employee_1"."address", 'city', "_employee_1"."city", 'state', "_employee_1"."state", 'country', "_employee_1"."country", 'postal_code', "_employee_1"."postal_code", 'phone', "_employee_1"."phone", 'fax', "_employee_1"."fax", 'email', "_employee_1"."email") AS "__kiln_row"
          FROM "public"."employee" AS "_employee_1"
          WHERE true) AS "_r_1")))::text) AS "result"
FROM unnest($1::int4[]) AS "_subs"("cohort_id");
