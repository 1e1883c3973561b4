-- role: admin
-- root field: delete_employee (delete on public.employee)
-- query: mutation { delete_employee(where: {}) { affected_rows returning { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."employee"; filter: none (every row)
--   returning columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_employee_1" AS (DELETE
  FROM "public"."employee" AS "_employee_2"
  WHERE true AND true RETURNING "_employee_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_employee_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('employee_id', "_employee_3"."employee_id", 'last_name', "_employee_3"."last_name", 'first_name', "_employee_3"."first_name", 'title', "_employee_3"."title", 'reports_to', "_employee_3"."reports_to", 'birth_date', "_employee_3"."birth_date", 'hire_date', "_employee_3"."hire_date", 'address', "_employee_3"."address", 'city', "_employee_3"."city", 'state', "_employee_3"."state", 'country', "_employee_3"."country", 'postal_code', "_employee_3"."postal_code", 'phone', "_employee_3"."phone", 'fax', "_employee_3"."fax", 'email', "_employee_3"."email")), '[]'::json)
        FROM (
          SELECT "employee_id", "last_name", "first_name", "title", "reports_to", "birth_date", "hire_date", "address", "city", "state", "country", "postal_code", "phone", "fax", "email"
          FROM "_employee_1") AS "_employee_3")))::text, 'null');
