-- role: admin
-- root field: chinook_invoice_line_aggregate (select_aggregate on chinook.invoice_line)
-- query: query { chinook_invoice_line_aggregate { aggregate { count } nodes { invoice_line_id invoice_id track_id unit_price quantity } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.invoice_line`; filter: none (every row)
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none; aggregations: yes
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT STRUCT(STRUCT(COUNT(*) AS `f0`) AS `f0`, ARRAY_AGG(`_n_1`.`__n1`
        ORDER BY `_n_1`.`__rn`) AS `f1`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_invoice_line_1`.`invoice_line_id` AS `f0`, `_invoice_line_1`.`invoice_id` AS `f1`, `_invoice_line_1`.`track_id` AS `f2`, `_invoice_line_1`.`unit_price` AS `f3`, `_invoice_line_1`.`quantity` AS `f4`) AS `__n1`
        FROM `chinook.invoice_line` AS `_invoice_line_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;
