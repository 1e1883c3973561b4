-- role: admin
-- root field: article_status_by_pk (select_by_pk on public.article_status)
-- query: query ($value: String!) { article_status_by_pk(value: $value) { value comment } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "public"."article_status"; filter: none (every row)
--   columns: value, comment
-- $1 = variable $value :: text
SELECT (json_build_object('article_status_by_pk', (
      SELECT json_build_object('value', "_article_status_1"."value", 'comment', "_article_status_1"."comment")
      FROM "public"."article_status" AS "_article_status_1"
      WHERE "_article_status_1"."value" = ($1)::text AND true
      LIMIT 1)))::text;
