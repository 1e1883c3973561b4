-- role: customer
-- root field: invoice_line_by_pk (select_by_pk on dbo.invoice_line)
-- query: query ($invoice_line_id: Int!) { invoice_line_by_pk(invoice_line_id: $invoice_line_id) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice_line]; filter: EXISTS (SELECT 1 FROM [dbo].[invoice] AS {alias invoice #1} WHERE ({alias invoice #1}.[invoice_id] = {row}.[invoice_id]) AND ({alias invoice #1}.[customer_id] = {session x-svc-customer-id :: int}))
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- @p1 = variable $invoice_line_id :: int
-- @p2 = session x-svc-customer-id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id], [_invoice_line_1].[track_id] AS [track_id], [_invoice_line_1].[unit_price] AS [unit_price], [_invoice_line_1].[quantity] AS [quantity]
      FROM [dbo].[invoice_line] AS [_invoice_line_1]
      WHERE ([_invoice_line_1].[invoice_line_id] = @p1) AND EXISTS (
        SELECT 1
        FROM [dbo].[invoice] AS [_invoice_1]
        WHERE ([_invoice_1].[invoice_id] = [_invoice_line_1].[invoice_id]) AND ([_invoice_1].[customer_id] = @p2)) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_line_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
