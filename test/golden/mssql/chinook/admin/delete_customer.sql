-- role: admin
-- root field: delete_customer (delete on dbo.customer)
-- query: mutation { delete_customer(where: {}) { affected_rows returning { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[customer]; filter: none (every row)
--   returning columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[customer]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[customer]
WHERE 1 = 0;
DELETE [_customer_1] OUTPUT DELETED.* INTO [#kiln_w1]
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
