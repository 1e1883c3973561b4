-- { invoice(where: {invoice_id: {_lt: 4}}, order_by: {invoice_id: asc}) { __typename invoice_id invoice_date total } }
-- @p1 = constant 4 :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT N'invoice' AS [__typename], [_invoice_1].[invoice_id] AS [invoice_id], [_invoice_1].[invoice_date] AS [invoice_date], [_invoice_1].[total] AS [total]
        FROM [dbo].[invoice] AS [_invoice_1]
        WHERE ([_invoice_1].[invoice_id] < @p1)
        ORDER BY CASE WHEN [_invoice_1].[invoice_id] IS NULL THEN 1 ELSE 0 END, [_invoice_1].[invoice_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
