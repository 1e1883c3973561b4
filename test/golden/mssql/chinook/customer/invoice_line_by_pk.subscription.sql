-- role: customer
-- subscription: invoice_line_by_pk (live query, select_by_pk on dbo.invoice_line)
-- query: subscription ($invoice_line_id: Int!) { invoice_line_by_pk(invoice_line_id: $invoice_line_id) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice_line]; filter: EXISTS (SELECT 1 FROM [dbo].[invoice] AS {alias invoice #1} WHERE ({alias invoice #1}.[invoice_id] = {row}.[invoice_id]) AND ({alias invoice #1}.[customer_id] = {session x-svc-customer-id :: int}))
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = variable $invoice_line_id, one per cohort: a JSON array of text (read as int)
-- @p3 = session x-svc-customer-id, one per cohort: a JSON array of text (read as int)
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT TOP (1) [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id], [_invoice_line_1].[track_id] AS [track_id], [_invoice_line_1].[unit_price] AS [unit_price], [_invoice_line_1].[quantity] AS [quantity]
        FROM [dbo].[invoice_line] AS [_invoice_line_1]
        WHERE ([_invoice_line_1].[invoice_line_id] = [_subs].[p1]) AND EXISTS (
          SELECT 1
          FROM [dbo].[invoice] AS [_invoice_1]
          WHERE ([_invoice_1].[invoice_id] = [_invoice_line_1].[invoice_id]) AND ([_invoice_1].[customer_id] = [_subs].[p2])) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_line_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1], (
    SELECT [value]
    FROM OPENJSON(@p3)
    WHERE [key] = [_c].[key]) AS [p2]) AS [_subs];
