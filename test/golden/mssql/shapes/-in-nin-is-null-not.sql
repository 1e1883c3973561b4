-- { customer(where: {_and: [{country: {_in: ["Brazil", "Canada"]}}, {company: {_is_null: false}}, {_not: {city: {_nin: ["São Paulo", "Montréal"]}}}]}, order_by: {customer_id: asc}) { customer_id city company } }
-- @p1 = constant ["Brazil","Canada"] :: nvarchar(40)[]
-- @p2 = constant ["São Paulo","Montréal"] :: nvarchar(40)[]
SELECT (
  SELECT JSON_QUERY(ISNULL((
        SELECT [_customer_1].[customer_id] AS [customer_id], [_customer_1].[city] AS [city], [_customer_1].[company] AS [company]
        FROM [dbo].[customer] AS [_customer_1]
        WHERE (([_customer_1].[country] IN (
              SELECT [value]
              FROM OPENJSON(@p1))) AND ([_customer_1].[company] IS NOT NULL) AND NOT (([_customer_1].[city] NOT IN (
                SELECT [value]
                FROM OPENJSON(@p2)))))
        ORDER BY CASE WHEN [_customer_1].[customer_id] IS NULL THEN 1 ELSE 0 END, [_customer_1].[customer_id] ASC FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [customer] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data];
