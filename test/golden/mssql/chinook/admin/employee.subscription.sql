-- role: admin
-- subscription: employee (live query, select on dbo.employee)
-- query: subscription { employee { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[employee]; filter: none (every row)
--   columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email; row limit: none
-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array
SELECT CAST([_subs].[cohort_id] AS nvarchar(20)) AS [cohort], (
  SELECT (
    SELECT JSON_QUERY(ISNULL((
          SELECT [_employee_1].[employee_id] AS [employee_id], [_employee_1].[last_name] AS [last_name], [_employee_1].[first_name] AS [first_name], [_employee_1].[title] AS [title], [_employee_1].[reports_to] AS [reports_to], [_employee_1].[birth_date] AS [birth_date], [_employee_1].[hire_date] AS [hire_date], [_employee_1].[address] AS [address], [_employee_1].[city] AS [city], [_employee_1].[state] AS [state], [_employee_1].[country] AS [country], [_employee_1].[postal_code] AS [postal_code], [_employee_1].[phone] AS [phone], [_employee_1].[fax] AS [fax], [_employee_1].[email] AS [email]
          FROM [dbo].[employee] AS [_employee_1]
          WHERE 1 = 1 FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [employee] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]) AS [result]
FROM OPENJSON(@p1) AS [_c] CROSS APPLY (
  SELECT CAST([_c].[value] AS int) AS [cohort_id]) AS [_subs];
