-- role: admin
-- root field: insert_employee (insert on dbo.employee)
-- query: mutation ($employee_id: Int, $last_name: String, $first_name: String, $title: String, $reports_to: Int, $birth_date: datetime2, $hire_date: datetime2, $address: String, $city: String, $state: String, $country: String, $postal_code: String, $phone: String, $fax: String, $email: String) { insert_employee(objects: [{employee_id: $employee_id, last_name: $last_name, first_name: $first_name, title: $title, reports_to: $reports_to, birth_date: $birth_date, hire_date: $hire_date, address: $address, city: $city, state: $state, country: $country, postal_code: $postal_code, phone: $phone, fax: $fax, email: $email}]) { affected_rows returning { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[employee]; columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email
--   check: none (every row)
--   on conflict: update columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email; filter: none (every row); check: none (every row)
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
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[employee] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[employee]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[employee]
WHERE 1 = 0;
INSERT INTO [dbo].[employee] ([employee_id], [last_name], [first_name], [title], [reports_to], [birth_date], [hire_date], [address], [city], [state], [country], [postal_code], [phone], [fax], [email]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11, @p12, @p13, @p14, @p15);
SET IDENTITY_INSERT [dbo].[employee] OFF;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_employee_1].[employee_id] AS [employee_id], [_employee_1].[last_name] AS [last_name], [_employee_1].[first_name] AS [first_name], [_employee_1].[title] AS [title], [_employee_1].[reports_to] AS [reports_to], [_employee_1].[birth_date] AS [birth_date], [_employee_1].[hire_date] AS [hire_date], [_employee_1].[address] AS [address], [_employee_1].[city] AS [city], [_employee_1].[state] AS [state], [_employee_1].[country] AS [country], [_employee_1].[postal_code] AS [postal_code], [_employee_1].[phone] AS [phone], [_employee_1].[fax] AS [fax], [_employee_1].[email] AS [email]
          FROM (
            SELECT [employee_id], [last_name], [first_name], [title], [reports_to], [birth_date], [hire_date], [address], [city], [state], [country], [postal_code], [phone], [fax], [email]
            FROM [#kiln_w1]) AS [_employee_1] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
