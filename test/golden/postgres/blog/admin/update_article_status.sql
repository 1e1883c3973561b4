-- role: admin
-- root field: update_article_status (update on public.article_status)
-- query: mutation ($value: String, $comment: String) { update_article_status(where: {}, _set: {value: $value, comment: $comment}) { affected_rows returning { value comment } } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   update: "public"."article_status"; columns: value, comment
--   filter: none (every row); check: none (every row)
--   returning columns: value, comment
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $value :: text
-- $2 = variable $comment :: text
WITH "_article_status_1" AS (UPDATE "public"."article_status" AS "_article_status_2" SET "value" = ($1)::text, "comment" = ($2)::text
  WHERE true AND true RETURNING "_article_status_2".*) SELECT '0:' || coalesce((json_build_object('affected_rows', (
        SELECT count(*)
        FROM "_article_status_1"), 'returning', (
        SELECT coalesce(json_agg(json_build_object('value', "_article_status_3"."value", 'comment', "_article_status_3"."comment")), '[]'::json)
        FROM (
          SELECT "value", "comment"
          FROM "_article_status_1") AS "_article_status_3")))::text, 'null');
