-- role: admin
-- root field: insert_invoice_line_one (insert_one on public.invoice_line)
-- query: mutation ($invoice_line_id: Int, $invoice_id: Int, $track_id: Int, $unit_price: numeric, $quantity: Int) { insert_invoice_line_one(object: {invoice_line_id: $invoice_line_id, invoice_id: $invoice_id, track_id: $track_id, unit_price: $unit_price, quantity: $quantity}) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."invoice_line"; columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
--   check: none (every row)
--   on conflict: update columns: invoice_line_id, invoice_id, track_id, unit_price, quantity; filter: none (every row); check: none (every row)
--   returning columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $invoice_line_id :: int4
-- $2 = variable $invoice_id :: int4
-- $3 = variable $track_id :: int4
-- $4 = variable $unit_price :: numeric
-- $5 = variable $quantity :: int4
WITH "_invoice_line_1" AS (INSERT INTO "public"."invoice_line" AS "_invoice_line_2" ("invoice_line_id", "invoice_id", "track_id", "unit_price", "quantity") VALUES (($1)::int4, ($2)::int4, ($3)::int4, ($4)::numeric, ($5)::int4) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('invoice_line_id', "_invoice_line_3"."invoice_line_id", 'invoice_id', "_invoice_line_3"."invoice_id", 'track_id', "_invoice_line_3"."track_id", 'unit_price', "_invoice_line_3"."unit_price", 'quantity', "_invoice_line_3"."quantity")
      FROM (
        SELECT "invoice_line_id", "invoice_id", "track_id", "unit_price", "quantity"
        FROM "_invoice_line_1") AS "_invoice_line_3"
      LIMIT 1))::text, 'null');
