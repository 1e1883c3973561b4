-- role: admin
-- subscription: invoice_aggregate (live query, select_aggregate on dbo.invoice)
-- query: subscription { invoice_aggregate { aggregate { count } nodes { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[invoice]; filter: none (every row)
--   columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT JSON_QUERY((
            SELECT COUNT(*) AS [count]
            FROM (
              SELECT 1 AS [__kiln_one]
              FROM [dbo].[invoice] AS [_invoice_1]
              WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
              SELECT [_invoice_1].[invoice_id] AS [invoice_id], [_invoice_1].[customer_id] AS [customer_id], [_invoice_1].[invoice_date] AS [invoice_date], [_invoice_1].[billing_address] AS [billing_address], [_invoice_1].[billing_city] AS [billing_city], [_invoice_1].[billing_state] AS [billing_state], [_invoice_1].[billing_country] AS [billing_country], [_invoice_1].[billing_postal_code] AS [billing_postal_code], [_invoice_1].[total] AS [total]
              FROM [dbo].[invoice] AS [_invoice_1]
              WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [invoice_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];
