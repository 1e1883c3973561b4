-- { invoice(where: {invoice_id: {_lt: 80}}, order_by: {invoice_id: asc}) { invoice_id invoice_lines(order_by: {invoice_line_id: asc}) { invoice_line_id unit_price } invoice_lines_aggregate { aggregate { count } } } }
-- @p1 = session x-svc-customer-id :: int
-- @p2 = constant 80 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_invoice_1].[invoice_id] AS [invoice_id], JSON_QUERY(ISNULL([_rel_1].[json], N'[]')) AS [invoice_lines], JSON_QUERY([_rel_2].[json]) AS [invoice_lines_aggregate]
        FROM [dbo].[invoice] AS [_invoice_1] OUTER APPLY (
          SELECT (
            SELECT [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[unit_price] AS [unit_price]
            FROM [dbo].[invoice_line] AS [_invoice_line_1]
            WHERE ([_invoice_line_1].[invoice_id] = [_invoice_1].[invoice_id])
            ORDER BY CASE WHEN [_invoice_line_1].[invoice_line_id] IS NULL THEN 1 ELSE 0 END, [_invoice_line_1].[invoice_line_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_1] OUTER APPLY (
          SELECT (
            SELECT JSON_QUERY((
                SELECT COUNT(*) AS [count]
                FROM (
                  SELECT 1 AS [__kiln_one]
                  FROM [dbo].[invoice_line] AS [_invoice_line_2]
                  WHERE ([_invoice_line_2].[invoice_id] = [_invoice_1].[invoice_id])) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [json]) AS [_rel_2]
        WHERE ([_invoice_1].[customer_id] = @p1) AND ([_invoice_1].[invoice_id] < @p2)
        ORDER BY CASE WHEN [_invoice_1].[invoice_id] IS NULL THEN 1 ELSE 0 END, [_invoice_1].[invoice_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
