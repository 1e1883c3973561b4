-- role: admin
-- root field: delete_invoice_line_by_pk (delete_by_pk on public.invoice_line)
-- query: mutation ($pk_invoice_line_id: Int!) { delete_invoice_line_by_pk(invoice_line_id: $pk_invoice_line_id) { invoice_line_id invoice_id track_id unit_price quantity } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."invoice_line"; filter: none (every row)
--   returning columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_invoice_line_id :: int4
WITH "_invoice_line_1" AS (DELETE
  FROM "public"."invoice_line" AS "_invoice_line_2"
  WHERE true AND ("_invoice_line_2"."invoice_line_id" = ($1)::int4) RETURNING "_invoice_line_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('invoice_line_id', "_invoice_line_3"."invoice_line_id", 'invoice_id', "_invoice_line_3"."invoice_id", 'track_id', "_invoice_line_3"."track_id", 'unit_price', "_invoice_line_3"."unit_price", 'quantity', "_invoice_line_3"."quantity")
      FROM (
        SELECT "invoice_line_id", "invoice_id", "track_id", "unit_price", "quantity"
        FROM "_invoice_line_1") AS "_invoice_line_3"
      LIMIT 1))::text, 'null');
