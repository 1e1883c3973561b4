-- role: admin
-- root field: delete_invoice (delete on dbo.invoice)
-- query: mutation { delete_invoice(where: {}) { affected_rows returning { invoice_id customer_id invoice_date billing_address billing_city billing_state billing_country billing_postal_code total } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: [dbo].[invoice]; filter: none (every row)
--   returning columns: invoice_id, customer_id, invoice_date, billing_address, billing_city, billing_state, billing_country, billing_postal_code, total
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[invoice]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[invoice]
WHERE 1 = 0;
DELETE [_invoice_1] OUTPUT DELETED.* INTO [#kiln_w1]
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
