-- role: admin
-- root field: chinook_customer (select on chinook.customer)
-- query: query { chinook_customer { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.customer`; filter: none (every row)
--   columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_customer_1`.`customer_id` AS `f0`, `_customer_1`.`first_name` AS `f1`, `_customer_1`.`last_name` AS `f2`, `_customer_1`.`company` AS `f3`, `_customer_1`.`address` AS `f4`, `_customer_1`.`city` AS `f5`, `_customer_1`.`state` AS `f6`, `_customer_1`.`country` AS `f7`, `_customer_1`.`postal_code` AS `f8`, `_customer_1`.`phone` AS `f9`, `_customer_1`.`fax` AS `f10`, `_customer_1`.`email` AS `f11`, `_customer_1`.`support_rep_id` AS `f12`) AS `__v`
        FROM `chinook.customer` AS `_customer_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;
