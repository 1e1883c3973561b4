-- role: admin
-- root field: insert_invoice_line_one (insert_one on dbo.invoice_line)
-- query: mutation ($invoice_line_id: Int, $invoice_id: Int, $track_id: Int, $unit_price: numeric, $quantity: Int) { insert_invoice_line_one(object: {invoice_line_id: $invoice_line_id, invoice_id: $invoice_id, track_id: $track_id, unit_price: $unit_price, quantity: $quantity}) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: [dbo].[invoice_line]; columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
--   check: none (every row)
--   on conflict: update columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; filter: none (every row); check: none (every row)
--   returning columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- @p1 = variable $invoice_line_id :: int
-- @p2 = variable $invoice_id :: int
-- @p3 = variable $track_id :: int
-- @p4 = variable $unit_price :: numeric(10,2)
-- @p5 = variable $quantity :: int
SET NOCOUNT ON;
DROP TABLE IF EXISTS [#kiln_w1];
SET IDENTITY_INSERT [dbo].[invoice_line] ON;
SELECT * INTO [#kiln_w1]
FROM [dbo].[invoice_line]
WHERE 1 = 0 UNION ALL SELECT *
FROM [dbo].[invoice_line]
WHERE 1 = 0;
INSERT INTO [dbo].[invoice_line] ([invoice_line_id], [invoice_id], [track_id], [unit_price], [quantity]) OUTPUT INSERTED.* INTO [#kiln_w1] VALUES (@p1, @p2, @p3, @p4, @p5);
SET IDENTITY_INSERT [dbo].[invoice_line] OFF;
SELECT N'0:' + ISNULL((
    SELECT TOP (1) [_invoice_line_1].[invoice_line_id] AS [invoice_line_id], [_invoice_line_1].[invoice_id] AS [invoice_id], [_invoice_line_1].[track_id] AS [track_id], [_invoice_line_1].[unit_price] AS [unit_price], [_invoice_line_1].[quantity] AS [quantity]
    FROM (
      SELECT [invoice_line_id], [invoice_id], [track_id], [unit_price], [quantity]
      FROM [#kiln_w1]) AS [_invoice_line_1] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES), N'null') AS [data];
DROP TABLE [#kiln_w1];
