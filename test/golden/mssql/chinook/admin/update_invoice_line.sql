-- role: admin
-- root field: update_invoice_line (update on dbo.invoice_line)
-- query: mutation ($invoice_line_id: Int, $invoice_id: Int, $track_id: Int, $unit_price: numeric, $quantity: Int) { update_invoice_line(where: {}, _set: {invoice_line_id: $invoice_line_id, invoice_id: $invoice_id, track_id: $track_id, unit_price: $unit_price, quantity: $quantity}) { affected_rows returning { invoice_line_id invoice_id track_id unit_price quantity } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: [dbo].[invoice_line]; columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
--   filter: none (every row); check: none (every row)
--   returning columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $invoice_line_id :: int
-- @p2 = variable $invoice_id :: int
-- @p3 = variable $track_id :: int
-- @p4 = variable $unit_price :: numeric(10,2)
-- @p5 = variable $quantity :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SELECT * INTO [#kiln_w1]
FROM [dbo].[invoice_line]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[invoice_line]
WHERE 1 = 0;
UPDATE [_invoice_line_1] SET [invoice_line_id] = @p1, [invoice_id] = @p2, [track_id] = @p3, [unit_price] = @p4, [quantity] = @p5 OUTPUT INSERTED.* INTO [#kiln_w1]
FROM [dbo].[invoice_line] AS [_invoice_line_1]
WHERE 1 = 1;
SELECT N'0:' + ISNULL((
    SELECT (
      SELECT COUNT(*)
      FROM [#kiln_w1]) AS [affected_rows], JSON_QUERY(ISNULL((
          SELECT [_invoice_line_2].[invoice_line_id] AS [invoice_line_id], [_invoice_line_2].[invoice_id] AS [invoice_id], [_invoice_line_2].[track_id] AS [track_id], [_invoice_line_2].[unit_price] AS [unit_price], [_invoice_line_2].[quantity] AS [quantity]
          FROM (
            SELECT [invoice_line_id], [invoice_id], [track_id], [unit_price], [quantity]
            FROM [#kiln_w1]) AS [_invoice_line_2] FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')) AS [returning] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
