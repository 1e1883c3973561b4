-- role: admin
-- root field: insert_employee (insert on public.employee)
-- query: mutation ($employee_id: Int, $last_name: String, $first_name: String, $title: String, $reports_to: Int, $birth_date: timestamp, $hire_date: timestamp, $address: String, $city: String, $state: String, $country: String, $postal_code: String, $phone: String, $fax: String, $email: String) { insert_employee(objects: [{employee_id: $employee_id, last_name: $last_name, first_name: $first_name, title: $title, reports_to: $reports_to, birth_date: $birth_date, hire_date: $hire_date, address: $address, city: $city, state: $state, country: $country, postal_code: $postal_code, phone: $phone, fax: $fax, email: $email}]) { affected_rows returning { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."employee"; columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
--   check: none (every row)
--   on conflict: update columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email; filter: none (every row); check: none (every row)
--   returning columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $employee_id :: int4
-- $2 = variable $last_name :: varchar
-- $3 = variable $first_name :: varchar
-- $4 = variable $title :: varchar
-- $5 = variable $reports_to :: int4
-- $6 = variable $birth_date :: timestamp
-- $7 = variable $hire_date :: timestamp
-- $8 = variable $address :: varchar
-- $9 = variable $city :: varchar
-- $10 = variable $state :: varchar
-- $11 = variable $country :: varchar
-- $12 = variable $postal_code :: varchar
-- $13 = variable $phone :: varchar
-- $14 = variable $fax :: varchar
-- $15 = variable $email :: varchar
WITH "_employee_1" AS (INSERT INTO "public"."employee" AS "_employee_2" ("employee_id", "last_name", "first_name", "title", "reports_to", "birth_date", "hire_date", "address", "city", "state", "country", "postal_code", "phone", "fax", "email") VALUES (($1)::int4, ($2)::varchar, ($3)::varchar, ($4)::varchar, ($5)::int4, ($6)::timestamp, ($7)::timestamp, ($8)::varchar, ($9)::varchar, ($10)::varchar, ($11)::varchar, ($12)::varchar, ($13)::varchar, ($14)::varchar, ($15)::varchar) RETURNING *) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_employee_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('employee_id', "_employee_3"."employee_id", 'last_name', "_employee_3"."last_name", 'first_name', "_employee_3"."first_name", 'title', "_employee_3"."title", 'reports_to', "_employee_3"."reports_to", 'birth_date', "_employee_3"."birth_date", 'hire_date', "_employee_3"."hire_date", 'address', "_employee_3"."address", 'city', "_employee_3"."city", 'state', "_employee_3"."state", 'country', "_employee_3"."country", 'postal_code', "_employee_3"."postal_code", 'phone', "_employee_3"."phone", 'fax', "_employee_3"."fax", 'email', "_employee_3"."email")), '[]'::json)
        FROM (
          SELECT "employee_id", "last_name", "first_name", "title", "reports_to", "birth_date", "hire_date", "address", "city", "state", "country", "postal_code", "phone", "fax", "email"
          FROM "_employee_1") AS "_employee_3")))::text, 'null');
