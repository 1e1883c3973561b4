-- role: admin
-- root field: delete_employee_by_pk (delete_by_pk on dbo.employee)
-- query: mutation ($pk_employee_id: Int!) { delete_employee_by_pk(employee_id: $pk_employee_id) { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[employee]; filter: none (every row)
--   returning columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $pk_employee_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[employee]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[employee]
WHERE 1 = 0;
DELETE [_employee_1] OUTPUT DELETED.* INTO [#kiln_w1]
FROM [dbo].[employee] AS [_employee_1]
WHERE ([_employee_1].[employee_id] = @p1);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_employee_2].[employee_id] AS [employee_id], [_employee_2].[last_name] AS [last_name], [_employee_2].[first_name] AS [first_name], [_employee_2].[title] AS [title], [_employee_2].[reports_to] AS [reports_to], [_employee_2].[birth_date] AS [birth_date], [_employee_2].[hire_date] AS [hire_date], [_employee_2].[address] AS [address], [_employee_2].[city] AS [city], [_employee_2].[state] AS [state], [_employee_2].[country] AS [country], [_employee_2].[postal_code] AS [postal_code], [_employee_2].[phone] AS [phone], [_employee_2].[fax] AS [fax], [_employee_2].[email] AS [email]
    FROM (
      SELECT [employee_id], [last_name], [first_name], [title], [reports_to], [birth_date], [hire_date], [address], [city], [state], [country], [postal_code], [phone], [fax], [email]
      FROM [#kiln_w1]) AS [_employee_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
