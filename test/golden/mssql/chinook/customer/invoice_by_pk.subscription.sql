-- role: customer
-- subscription: invoice_by_pk (live query, select_by_pk on dbo.invoice)
-- query: subscription ($invoice_id: Int!) { invoice_by_pk(invoice_id: $invoice_id) { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice]; filter: ({row}.[customer_id] = {session x-svc-customer-id :: int})
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $invoice_id, one per cohort: a JSON array of text (read as int)
-- @p3 = session x-svc-customer-id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_invoice_1].[invoice_id] AS [invoice_id], [_invoice_1].[customer_id] AS [customer_id], [_invoice_1].[invoice_date] AS [invoice_date], [_invoice_1].[billing_address] AS [billing_address], [_invoice_1].[billing_city] AS [billing_city], [_invoice_1].[billing_state] AS [billing_state], [_invoice_1].[billing_country] AS [billing_country], [_invoice_1].[billing_postal_code] AS [billing_postal_code], [_invoice_1].[total] AS [total]
        FROM [dbo].[invoice] AS [_invoice_1]
        WHERE ([_invoice_1].[invoice_id] = [_subs].[p1]) AND ([_invoice_1].[customer_id] = [_subs].[p2]) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1], (
    SELECT [value]
    FROM OPENJSON(@p3)
    WHERE [key] = [_c].[key]) AS [p2]) AS [_subs];
