-- role: admin
-- root field: chinook_invoice_line (select on chinook.invoice_line)
-- query: query { chinook_invoice_line { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.invoice_line`; filter: none (every row)
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_invoice_line_1`.`invoice_line_id` AS `f0`, `_invoice_line_1`.`invoice_id` AS `f1`, `_invoice_line_1`.`track_id` AS `f2`, `_invoice_line_1`.`unit_price` AS `f3`, `_invoice_line_1`.`quantity` AS `f4`) AS `__v`
        FROM `chinook.invoice_line` AS `_invoice_line_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;
