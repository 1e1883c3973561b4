-- role: admin
-- root field: update_employee_by_pk (update_by_pk on dbo.employee)
-- query: mutation ($pk_employee_id: Int!, $employee_id: Int, $last_name: String, $first_name: String, $title: String, $reports_to: Int, $birth_date: datetime2, $hire_date: datetime2, $address: String, $city: String, $state: String, $country: String, $postal_code: String, $phone: String, $fax: String, $email: String) { update_employee_by_pk(pk_columns: {employee_id: $pk_employee_id}, _set: {employee_id: $employee_id, last_name: $last_name, first_name: $first_name, title: $title, reports_to: $reports_to, birth_date: $birth_date, hire_date: $hire_date, address: $address, city: $city, state: $state, country: $country, postal_code: $postal_code, phone: $phone, fax: $fax, email: $email}) { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[employee]; columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
--   filter: none (every row); check: none (every row)
--   returning columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $employee_id :: int
-- @p2 = variable $last_name :: nvarchar(20)
-- @p3 = variable $first_name :: nvarchar(20)
-- @p4 = variable $title :: nvarchar(30)
-- @p5 = variable $reports_to :: int
-- @p6 = variable $birth_date :: datetime2
-- @p7 = variable $hire_date :: datetime2
-- @p8 = variable $address :: nvarchar(70)
-- @p9 = variable $city :: nvarchar(40)
-- @p10 = variable $state :: nvarchar(40)
-- @p11 = variable $country :: nvarchar(40)
-- @p12 = variable $postal_code :: nvarchar(10)
-- @p13 = variable $phone :: nvarchar(24)
-- @p14 = variable $fax :: nvarchar(24)
-- @p15 = variable $email :: nvarchar(60)
-- @p16 = variable $pk_employee_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[employee]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[employee]
WHERE 1 = 0;
UPDATE [_employee_1] SET [employee_id] = @p1, [last_name] = @p2, [first_name] = @p3, [title] = @p4, [reports_to] = @p5, [birth_date] = @p6, [hire_date] = @p7, [address] = @p8, [city] = @p9, [state] = @p10, [country] = @p11, [postal_code] = @p12, [phone] = @p13, [fax] = @p14, [email] = @p15 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[employee] AS [_employee_1]
WHERE ([_employee_1].[employee_id] = @p16);
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_employee_2].[employee_id] AS [employee_id], [_employee_2].[last_name] AS [last_name], [_employee_2].[first_name] AS [first_name], [_employee_2].[title] AS [title], [_employee_2].[reports_to] AS [reports_to], [_employee_2].[birth_date] AS [birth_date], [_employee_2].[hire_date] AS [hire_date], [_employee_2].[address] AS [address], [_employee_2].[city] AS [city], [_employee_2].[state] AS [state], [_employee_2].[country] AS [country], [_employee_2].[postal_code] AS [postal_code], [_employee_2].[phone] AS [phone], [_employee_2].[fax] AS [fax], [_employee_2].[email] AS [email]
    FROM (
      SELECT [employee_id], [last_name], [first_name], [title], [reports_to], [birth_date], [hire_date], [address], [city], [state], [country], [postal_code], [phone], [fax], [email]
      FROM [#kiln_w1]) AS [_employee_2] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
