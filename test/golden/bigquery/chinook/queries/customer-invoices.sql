-- role: customer
-- { chinook_invoice(order_by: {invoice_date: desc}, limit: 10) { invoice_id total invoice_lines(where: {quantity: {_gt: 0}}) { unit_price } } }
-- $0 = constant 0 :: bigquery.INT64
-- $1 = session x-svc-customer-id :: bigquery.INT64
-- $2 = constant 10 :: INT64
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER (ORDER BY `_base_1`.`__o0` DESC NULLS FIRST) AS `__rn`
      FROM (
        SELECT STRUCT(`_invoice_1`.`invoice_id` AS `f0`, `_invoice_1`.`total` AS `f1`, `_j_1`.`__v` AS `f2`) AS `__v`, `_invoice_1`.`invoice_date` AS `__o0`
        FROM `chinook.invoice` AS `_invoice_1` LEFT JOIN (
          SELECT `_n_2`.`__k0`, ARRAY_AGG(`_n_2`.`__v`
            ORDER BY `_n_2`.`__rn`) AS `__v`
          FROM (
            SELECT `_base_2`.*, ROW_NUMBER() OVER (PARTITION BY `_base_2`.`__k0`) AS `__rn`
            FROM (
              SELECT `_invoice_line_1`.`invoice_id` AS `__k0`, STRUCT(`_invoice_line_1`.`unit_price` AS `f0`) AS `__v`
              FROM `chinook.invoice_line` AS `_invoice_line_1`
              WHERE TRUE AND (`_invoice_line_1`.`quantity` > CAST(@p0 AS INT64))) AS `_base_2`) AS `_n_2` GROUP BY `_n_2`.`__k0`) AS `_j_1` ON `_j_1`.`__k0` = `_invoice_1`.`invoice_id`
        WHERE (`_invoice_1`.`customer_id` = CAST(@p1 AS INT64))) AS `_base_1`) AS `_n_1`
    WHERE `__rn` <= CAST(@p2 AS INT64)) AS `_g_1`) AS `f0`;
