-- role: admin
-- root field: employee_by_pk (select_by_pk on public.employee)
-- query: query ($employee_id: Int!) { employee_by_pk(employee_id: $employee_id) { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."employee"; filter: none (every row)
--   columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
-- $1 = variable $employee_id :: int4
SELECT (json_build_object('employee_by_pk', (
      SELECT json_build_object('employee_id', "_employee_1"."employee_id", 'last_name', "_employee_1"."last_name", 'first_name', "_employee_1"."first_name", 'title', "_employee_1"."title", 'reports_to', "_employee_1"."reports_to", 'birth_date', "_employee_1"."birth_date", 'hire_date', "_employee_1"."hire_date", 'address', "_employee_1"."address", 'city', "_employee_1"."city", 'state', "_employee_1"."state", 'country', "_employee_1"."country", 'postal_code', "_employee_1"."postal_code", 'phone', "_employee_1"."phone", 'fax', "_employee_1"."fax", 'email', "_employee_1"."email")
      FROM "public"."employee" AS "_employee_1"
      WHERE "_employee_1"."employee_id" = ($1)::int4 AND true
      LIMIT 1)))::text;
