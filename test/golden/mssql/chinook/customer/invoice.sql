-- role: customer
-- root field: invoice (select on dbo.invoice)
-- query: query { invoice { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice]; filter: ({row}.[customer_id] = {session x-svc-customer-id :: int})
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total; row limit: none
-- @p1 = session x-svc-customer-id :: int
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_invoice_1].[invoice_id] AS [invoice_id], [_invoice_1].[customer_id] AS [customer_id], [_invoice_1].[invoice_date] AS [invoice_date], [_invoice_1].[billing_address] AS [billing_address], [_invoice_1].[billing_city] AS [billing_city], [_invoice_1].[billing_state] AS [billing_state], [_invoice_1].[billing_country] AS [billing_country], [_invoice_1].[billing_postal_code] AS [billing_postal_code], [_invoice_1].[total] AS [total]
        FROM [dbo].[invoice] AS [_invoice_1]
        WHERE ([_invoice_1].[customer_id] = @p1) FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
