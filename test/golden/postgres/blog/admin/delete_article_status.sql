-- role: admin
-- root field: delete_article_status (delete on public.article_status)
-- query: mutation { delete_article_status(where: {}) { affected_rows returning { value comment } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."article_status"; filter: none (every row)
--   returning columns: value, comment
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
WITH "_article_status_1" AS (DELETE
  FROM "public"."article_status" AS "_article_status_2"
  WHERE true AND true RETURNING "_article_status_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_status_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('value', "_article_status_3"."value", 'comment', "_article_status_3"."comment")), '[]'::json)
        FROM (
          SELECT "value", "comment"
          FROM "_article_status_1") AS "_article_status_3")))::text, 'null');
