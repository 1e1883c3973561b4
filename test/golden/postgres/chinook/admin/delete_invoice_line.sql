-- role: admin
-- root field: delete_invoice_line (delete on public.invoice_line)
-- query: mutation { delete_invoice_line(where: {}) { affected_rows returning { invoice_line_id invoice_id track_id unit_price quantity } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."invoice_line"; filter: none (every row)
--   returning columns: invoice_line_id, invoice_id, track_id, unit_price, quantity
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_invoice_line_1" AS (DELETE
  FROM "public"."invoice_line" AS "_invoice_line_2"
  WHERE true AND true RETURNING "_invoice_line_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_invoice_line_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('invoice_line_id', "_invoice_line_3"."invoice_line_id", 'invoice_id', "_invoice_line_3"."invoice_id", 'track_id', "_invoice_line_3"."track_id", 'unit_price', "_invoice_line_3"."unit_price", 'quantity', "_invoice_line_3"."quantity")), '[]'::json)
        FROM (
          SELECT "invoice_line_id", "invoice_id", "track_id", "unit_price", "quantity"
          FROM "_invoice_line_1") AS "_invoice_line_3")))::text, 'null');
