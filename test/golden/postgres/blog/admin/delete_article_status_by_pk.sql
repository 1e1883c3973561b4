-- role: admin
-- root field: delete_article_status_by_pk (delete_by_pk on public.article_status)
-- query: mutation ($pk_value: String!) { delete_article_status_by_pk(value: $pk_value) { value comment } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   delete from: "public"."article_status"; filter: none (every row)
--   returning columns: value, comment
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $pk_value :: text
WITH "_article_status_1" AS (DELETE
  FROM "public"."article_status" AS "_article_status_2"
  WHERE true AND ("_article_status_2"."value" = ($1)::text) RETURNING "_article_status_2".*) SELECT '0:' || coalesce(((
      SELECT json_build_object('value', "_article_status_3"."value", 'comment', "_article_status_3"."comment")
      FROM (
        SELECT "value", "comment"
        FROM "_article_status_1") AS "_article_status_3"
      LIMIT 1))::text, 'null');
