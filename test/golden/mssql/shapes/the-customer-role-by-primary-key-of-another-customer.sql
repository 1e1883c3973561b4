-- { invoice_by_pk(invoice_id: 1) { invoice_id } mine: invoice_by_pk(invoice_id: 77) { invoice_id customer_id } }
-- @p1 = constant 1 :: int
-- @p2 = session x-svc-customer-id :: int
-- @p3 = constant 77 :: int
-- @p4 = session x-svc-customer-id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_invoice_1].[invoice_id] AS [invoice_id]
      FROM [dbo].[invoice] AS [_invoice_1]
      WHERE ([_invoice_1].[invoice_id] = @p1) AND ([_invoice_1].[customer_id] = @p2) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_by_pk], JSON_QUERY((
      SELECT TOP (1) [_invoice_2].[invoice_id] AS [invoice_id], [_invoice_2].[customer_id] AS [customer_id]
      FROM [dbo].[invoice] AS [_invoice_2]
      WHERE ([_invoice_2].[invoice_id] = @p3) AND ([_invoice_2].[customer_id] = @p4) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [mine] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
