-- role: admin
-- persisted query: new_article in collection site
-- query: mutation NewArticle($title: String!) { insert_article_one(object: {title: $title}) { id title } }
-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed
-- field: insert_article_one
-- $1 = variable $title :: text
WITH "_article_1" AS (INSERT INTO "public"."article" AS "_article_2" ("title") VALUES (($1)::text) RETURNING *) SELECT '0:' || coalesce(((
      SELECT json_build_object('id', "_article_3"."id", 'title', "_article_3"."title")
      FROM (
        SELECT "id", "title", "body", "author_id", "status", "views", "tags", "published_on"
        FROM "_article_1") AS "_article_3"
      LIMIT 1))::text, 'null');
