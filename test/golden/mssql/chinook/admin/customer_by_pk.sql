-- role: admin
-- root field: customer_by_pk (select_by_pk on dbo.customer)
-- query: query ($customer_id: Int!) { customer_by_pk(customer_id: $customer_id) { customer_id first_name last_name company address city state country postal_code phone fax email support_rep_id } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: [dbo].[customer]; filter: none (every row)
--   columns: customer_id, first_name, last_name, company, address, city, state, country, postal_code, phone, fax, email, support_rep_id
-- @p1 = variable $customer_id :: int
SELECT (
  SELECT JSON_QUERY((
      SELECT TOP (1) [_customer_1].[customer_id] AS [customer_id], [_customer_1].[first_name] AS [first_name], [_customer_1].[last_name] AS [last_name], [_customer_1].[company] AS [company], [_customer_1].[address] AS [address], [_customer_1].[city] AS [city], [_customer_1].[state] AS [state], [_customer_1].[country] AS [country], [_customer_1].[postal_code] AS [postal_code], [_customer_1].[phone] AS [phone], [_customer_1].[fax] AS [fax], [_customer_1].[email] AS [email], [_customer_1].[support_rep_id] AS [support_rep_id]
      FROM [dbo].[customer] AS [_customer_1]
      WHERE ([_customer_1].[customer_id] = @p1) FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)) AS [customer_by_pk] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
