-- role: admin
-- root field: insert_article_status_one (insert_one on public.article_status)
-- query: mutation ($value: String, $comment: String) { insert_article_status_one(object: {value: $value, comment: $comment}) { value comment } }
-- template (precompiled in engine.mjs; the statement completes it with the request's arguments and selection):
--   insert into: "public"."article_status"; columns: value, comment
--   check: none (every row)
--   on conflict: update columns: value, comment; filter: none (every row); check: none (every row)
--   returning columns: value, comment
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- $1 = variable $value :: text
-- $2 = variable $comment :: text
WITH "_article_status_1" AS (INSERT INTO "public"."article_status" AS "_article_status_2" ("value", "comment") VALUES (($1)::text, ($2)::text) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('value', "_article_status_3"."value", 'comment', "_article_status_3"."comment")
      FROM (
        SELECT "value", "comment"
        FROM "_article_status_1") AS "_article_status_3"
      LIMIT 1))::text, 'null');
