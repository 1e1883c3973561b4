-- role: admin
-- root field: invoice_line_aggregate (select_aggregate on dbo.invoice_line)
-- query: query { invoice_line_aggregate { aggregate { count } nodes { invoice_line_id invoice_id track_id unit_price quantity } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice_line]; filter: none (every row)
--   columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; row limit: none; aggregations: yes
SELECT (
  SELECT JSON_QUERY((
      SELECT JSON_QUERY((
          SELECT COUNT(*) AS [count]
          FROM (
            SELECT 1 AS [__kiln_one]
            FROM [dbo].[invoice_line] AS [_invoice_line_1]
            WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
            SELECT [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id], [_invoice_line_1].[track_id] AS [track_id], [_invoice_line_1].[unit_price] AS [unit_price], [_invoice_line_1].[quantity] AS [quantity]
            FROM [dbo].[invoice_line] AS [_invoice_line_1]
            WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_line_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
