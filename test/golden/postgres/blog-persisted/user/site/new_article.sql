-- role: user
-- persisted query: new_article in collection site
-- query: mutation NewArticle($title: String!) { insert_article_one(object: {title: $title}) { id title } }
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- field: insert_article_one
-- $1 = variable $title :: text
-- $2 = session x-svc-user-id :: int4
-- $3 = constant "draft" :: text
-- $4 = session x-svc-user-id :: int4
WITH "_article_1" AS (INSERT INTO "public"."article" AS "_article_2" ("title", "author_id", "status") VALUES (($1)::text, ($2)::int4, ($3)::text) RETURNING *) SELECT (CASE WHEN NOT coalesce((
      SELECT bool_and(("_article_3"."author_id" = ($4)::int4))
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"), true) THEN '1:' ELSE '0:' END) || coalesce(((
      SELECT json_build_object('id', "_article_4"."id", 'title', "_article_4"."title")
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_4"
      LIMIT 1))::text, 'null');
