-- role: admin
-- root field: update_customer (update on dbo.customer)
-- query: mutation ($customer_id: Int, $first_name: String, $last_name: String, $company: String, $address: String, $city: String, $state: String, $country: String, $postal_code: String, $phone: String, $fax: String, $email: String, $support_rep_id: Int) { update_customer(where: {}, _set: {customer_id: $customer_id, first_name: $first_name, last_name: $last_name, company: $company, address: $address, city: $city, state: $state, country: $country, postal_code: $postal_code, phone: $phone, fax: $fax, email: $email, support_rep_id: $support_rep_id}) { affected_rows returning { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[customer]; columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
--   filter: none (every row); check: none (every row)
--   returning columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $customer_id :: int
-- @p2 = variable $first_name :: nvarchar(40)
-- @p3 = variable $last_name :: nvarchar(20)
-- @p4 = variable $company :: nvarchar(80)
-- @p5 = variable $address :: nvarchar(70)
-- @p6 = variable $city :: nvarchar(40)
-- @p7 = variable $state :: nvarchar(40)
-- @p8 = variable $country :: nvarchar(40)
-- @p9 = variable $postal_code :: nvarchar(10)
-- @p10 = variable $phone :: nvarchar(24)
-- @p11 = variable $fax :: nvarchar(24)
-- @p12 = variable $email :: nvarchar(60)
-- @p13 = variable $support_rep_id :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[customer]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[customer]
WHERE 1 = 0;
UPDATE [_customer_1] SET [customer_id] = @p1, [first_name] = @p2, [last_name] = @p3, [company] = @p4, [address] = @p5, [city] = @p6, [state] = @p7, [country] = @p8, [postal_code] = @p9, [phone] = @p10, [fax] = @p11, [email] = @p12, [support_rep_id] = @p13 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[customer] AS [_customer_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_customer_2].[customer_id] AS [customer_id], [_customer_2].[first_name] AS [first_name], [_customer_2].[last_name] AS [last_name], [_customer_2].[company] AS [company], [_customer_2].[address] AS [address], [_customer_2].[city] AS [city], [_customer_2].[state] AS [state], [_customer_2].[country] AS [country], [_customer_2].[postal_code] AS [postal_code], [_customer_2].[phone] AS [phone], [_customer_2].[fax] AS [fax], [_customer_2].[email] AS [email], [_customer_2].[support_rep_id] AS [support_rep_id]
          FROM (
            SELECT [customer_id], [first_name], [last_name], [company], [address], [city], [state], [country], [postal_code], [phone], [fax], [email], [support_rep_id]
            FROM [#kiln_w1]) AS [_customer_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
