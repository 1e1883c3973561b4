-- role: admin
-- root field: insert_customer_one (insert_one on public.customer)
-- query: mutation ($customer_id: Int, $first_name: String, $last_name: String, $company: String, $address: String, $city: String, $state: String, $country: String, $postal_code: String, $phone: String, $fax: String, $email: String, $support_rep_id: Int) { insert_customer_one(object: {customer_id: $customer_id, first_name: $first_name, last_name: $last_name, company: $company, address: $address, city: $city, state: $state, country: $country, postal_code: $postal_code, phone: $phone, fax: $fax, email: $email, support_rep_id: $support_rep_id}) { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."customer"; columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
--   check: none (every row)
--   on conflict: update columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id; filter: none (every row); check: none (every row)
--   returning columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $customer_id :: int4
-- $2 = variable $first_name :: varchar
-- $3 = variable $last_name :: varchar
-- $4 = variable $company :: varchar
-- $5 = variable $address :: varchar
-- $6 = variable $city :: varchar
-- $7 = variable $state :: varchar
-- $8 = variable $country :: varchar
-- $9 = variable $postal_code :: varchar
-- $10 = variable $phone :: varchar
-- $11 = variable $fax :: varchar
-- $12 = variable $email :: varchar
-- $13 = variable $support_rep_id :: int4
WITH "_customer_1" AS (INSERT INTO "public"."customer" AS "_customer_2" ("customer_id", "first_name", "last_name", "company", "address", "city", "state", "country", "postal_code", "phone", "fax", "email", "support_rep_id") VALUES (($1)::int4, ($2)::varchar, ($3)::varchar, ($4)::varchar, ($5)::varchar, ($6)::varchar, ($7)::varchar, ($8)::varchar, ($9)::varchar, ($10)::varchar, ($11)::varchar, ($12)::varchar, ($13)::int4) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('customer_id', "_customer_3"."customer_id", 'first_name', "_customer_3"."first_name", 'last_name', "_customer_3"."last_name", 'company', "_customer_3"."company", 'address', "_customer_3"."address", 'city', "_customer_3"."city", 'state', "_customer_3"."state", 'country', "_customer_3"."country", 'postal_code', "_customer_3"."postal_code", 'phone', "_customer_3"."phone", 'fax', "_customer_3"."fax", 'email', "_customer_3"."email", 'support_rep_id', "_customer_3"."support_rep_id")
      FROM (
        SELECT "customer_id", "first_name", "last_name", "company", "address", "city", "state", "country", "postal_code", "phone", "fax", "email", "support_rep_id"
        FROM "_customer_1") AS "_customer_3"
      LIMIT 1))::text, 'null');
