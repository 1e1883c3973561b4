-- role: admin
-- root field: update_invoice_many (update_many on dbo.invoice)
-- query: mutation ($invoice_id: Int, $customer_id: Int, $invoice_date: datetime2, $billing_address: String, $billing_city: String, $billing_state: String, $billing_country: String, $billing_postal_code: String, $total: numeric) { update_invoice_many(updates: [{where: {}, _set: {invoice_id: $invoice_id, customer_id: $customer_id, invoice_date: $invoice_date, billing_address: $billing_address, billing_city: $billing_city, billing_state: $billing_state, billing_country: $billing_country, billing_postal_code: $billing_postal_code, total: $total}}]) { affected_rows returning { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[invoice]; columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
--   filter: none (every row); check: none (every row)
--   returning columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $invoice_id :: int
-- @p2 = variable $customer_id :: int
-- @p3 = variable $invoice_date :: datetime2
-- @p4 = variable $billing_address :: nvarchar(70)
-- @p5 = variable $billing_city :: nvarchar(40)
-- @p6 = variable $billing_state :: nvarchar(40)
-- @p7 = variable $billing_country :: nvarchar(40)
-- @p8 = variable $billing_postal_code :: nvarchar(10)
-- @p9 = variable $total :: numeric(10,2)
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[invoice]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[invoice]
WHERE 1 = 0;
UPDATE [_invoice_1] SET [invoice_id] = @p1, [customer_id] = @p2, [invoice_date] = @p3, [billing_address] = @p4, [billing_city] = @p5, [billing_state] = @p6, [billing_country] = @p7, [billing_postal_code] = @p8, [total] = @p9 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[invoice] AS [_invoice_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_invoice_2].[invoice_id] AS [invoice_id], [_invoice_2].[customer_id] AS [customer_id], [_invoice_2].[invoice_date] AS [invoice_date], [_invoice_2].[billing_address] AS [billing_address], [_invoice_2].[billing_city] AS [billing_city], [_invoice_2].[billing_state] AS [billing_state], [_invoice_2].[billing_country] AS [billing_country], [_invoice_2].[billing_postal_code] AS [billing_postal_code], [_invoice_2].[total] AS [total]
          FROM (
            SELECT [invoice_id], [customer_id], [invoice_date], [billing_address], [billing_city], [billing_state], [billing_country], [billing_postal_code], [total]
            FROM [#kiln_w1]) AS [_invoice_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
