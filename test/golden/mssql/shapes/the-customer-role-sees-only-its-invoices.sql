-- { invoice(order_by: {invoice_id: asc}) { invoice_id total customer_id } invoice_line(order_by: {invoice_line_id: asc}, limit: 4) { invoice_line_id invoice_id } }
-- @p1 = session x-svc-customer-id :: int
-- @p2 = constant 4 :: int
-- @p3 = session x-svc-customer-id :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_invoice_1].[invoice_id] AS [invoice_id], [_invoice_1].[total] AS [total], [_invoice_1].[customer_id] AS [customer_id]
        FROM [dbo].[invoice] AS [_invoice_1]
        WHERE ([_invoice_1].[customer_id] = @p1)
        ORDER BY CASE WHEN [_invoice_1].[invoice_id] IS NULL THEN 1 ELSE 0 END, [_invoice_1].[invoice_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice], JSON_QUERY(ISNULL((
        SELECT TOP (@p2) [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id]
        FROM [dbo].[invoice_line] AS [_invoice_line_1]
        WHERE EXISTS (
          SELECT 1
          FROM [dbo].[invoice] AS [_invoice_2]
          WHERE ([_invoice_2].[invoice_id] = [_invoice_line_1].[invoice_id]) AND ([_invoice_2].[customer_id] = @p3))
        ORDER BY CASE WHEN [_invoice_line_1].[invoice_line_id] IS NULL THEN 1 ELSE 0 END, [_invoice_line_1].[invoice_line_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice_line] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
