-- role: admin
-- root field: chinook_invoice_aggregate (select_aggregate on chinook.invoice)
-- query: query { chinook_invoice_aggregate { aggregate { count } nodes { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.invoice`; filter: none (every row)
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total; row limit: none; aggregations: yes
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT STRUCT(STRUCT(COUNT(*) AS `f0`) AS `f0`, ARRAY_AGG(`_n_1`.`__n1`
        ORDER BY `_n_1`.`__rn`) AS `f1`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_invoice_1`.`invoice_id` AS `f0`, `_invoice_1`.`customer_id` AS `f1`, `_invoice_1`.`invoice_date` AS `f2`, `_invoice_1`.`billing_address` AS `f3`, `_invoice_1`.`billing_city` AS `f4`, `_invoice_1`.`billing_state` AS `f5`, `_invoice_1`.`billing_country` AS `f6`, `_invoice_1`.`billing_postal_code` AS `f7`, `_invoice_1`.`total` AS `f8`) AS `__n1`
        FROM `chinook.invoice` AS `_invoice_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;
