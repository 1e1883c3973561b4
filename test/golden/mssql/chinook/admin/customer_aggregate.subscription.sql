-- role: admin
-- subscription: customer_aggregate (live query, select_aggregate on dbo.customer)
-- query: subscription { customer_aggregate { aggregate { count } nodes { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[customer]; filter: none (every row)
--   columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id; row limit: none; aggregations: yes
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY((
        SELECT JSON_QUERY((
            SELECT COUNT(*) AS [count]
            FROM (
              SELECT 1 AS [__kiln_one]
              FROM [dbo].[customer] AS [_customer_1]
              WHERE 1 = 1) AS [_r_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [aggregate], JSON_QUERY(ISNULL((
              SELECT [_customer_1].[customer_id] AS [customer_id], [_customer_1].[first_name] AS [first_name], [_customer_1].[last_name] AS [last_name], [_customer_1].[company] AS [company], [_customer_1].[address] AS [address], [_customer_1].[city] AS [city], [_customer_1].[state] AS [state], [_customer_1].[country] AS [country], [_customer_1].[postal_code] AS [postal_code], [_customer_1].[phone] AS [phone], [_customer_1].[fax] AS [fax], [_customer_1].[email] AS [email], [_customer_1].[support_rep_id] AS [support_rep_id]
              FROM [dbo].[customer] AS [_customer_1]
              WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [nodes] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [customer_aggregate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];
