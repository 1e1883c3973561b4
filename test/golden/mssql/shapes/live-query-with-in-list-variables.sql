-- subscription (customer): invoice_line(where: {invoice_line_id: {_in: $ids}}, order_by: {invoice_line_id: desc}) { invoice_line_id invoice_id } invoice(where: {invoice_id: {_in: $inv}}, order_by: {invoice_id: asc}) { invoice_id total }
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
-- @p2 = session x-svc-customer-id, one per cohort: a JSON array of text (read as int)
-- @p3 = variable $ids, one per cohort: a JSON array of text (read as int[])
-- @p4 = session x-svc-customer-id, one per cohort: a JSON array of text (read as int)
-- @p5 = variable $inv, one per cohort: a JSON array of text (read as int[])
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY(ISNULL((
          SELECT [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id]
          FROM [dbo].[invoice_line] AS [_invoice_line_1]
          WHERE EXISTS (
            SELECT 1
            FROM [dbo].[invoice] AS [_invoice_1]
            WHERE ([_invoice_1].[invoice_id] = [_invoice_line_1].[invoice_id]) AND ([_invoice_1].[customer_id] = [_subs].[p1])) AND ([_invoice_line_1].[invoice_line_id] IN (
              SELECT [value]
              FROM OPENJSON([_subs].[p2])))
          ORDER BY CASE WHEN [_invoice_line_1].[invoice_line_id] IS NULL THEN 0 ELSE 1 END, [_invoice_line_1].[invoice_line_id] DESC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice_line], JSON_QUERY(ISNULL((
          SELECT [_invoice_2].[invoice_id] AS [invoice_id], [_invoice_2].[total] AS [total]
          FROM [dbo].[invoice] AS [_invoice_2]
          WHERE ([_invoice_2].[customer_id] = [_subs].[p3]) AND ([_invoice_2].[invoice_id] IN (
              SELECT [value]
              FROM OPENJSON([_subs].[p4])))
          ORDER BY CASE WHEN [_invoice_2].[invoice_id] IS NULL THEN 1 ELSE 0 END, [_invoice_2].[invoice_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [invoice] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id], (
    SELECT [value]
    FROM OPENJSON(@p2)
    WHERE [key] = [_c].[key]) AS [p1], (
    SELECT [value]
    FROM OPENJSON(@p3)
    WHERE [key] = [_c].[key]) AS [p2], (
    SELECT [value]
    FROM OPENJSON(@p4)
    WHERE [key] = [_c].[key]) AS [p3], (
    SELECT [value]
    FROM OPENJSON(@p5)
    WHERE [key] = [_c].[key]) AS [p4]) AS [_subs];
