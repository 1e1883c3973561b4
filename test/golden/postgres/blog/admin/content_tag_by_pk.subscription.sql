-- role: admin
-- subscription: content_tag_by_pk (live query, select_by_pk on content.tag)
-- query: subscription ($id: Int!) { content_tag_by_pk(id: $id) { id label } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: "content"."tag"; filter: none (every row)
--   columns: id, label
-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]
-- $2 = variable $id, one per cohort :: text[] (read as int4)
SELECT "_subs"."cohort_id"::text AS "cohort", (
  SELECT (json_build_object('content_tag_by_pk', (
        SELECT json_build_object('id', "_tag_1"."id", 'label', "_tag_1"."label")
        FROM "content"."tag" AS "_tag_1"
        WHERE "_tag_1"."id" = ("_subs"."p1")::int4 AND true
        LIMIT 1)))::text) AS "result"
FROM unnest($1::int4[], $2::text[]) AS "_subs"("cohort_id", "p1");
