-- role: user
-- persisted query: author_by_id in collection site
-- query: query AuthorById($id: Int!) { author_by_id(id: $id) { id name } }
-- $1 = variable $id :: int4
-- $2 = session x-svc-user-id :: int4
SELECT (json_build_object('author_by_id', (
      SELECT json_build_object('id', "_author_1"."id", 'name', "_author_1"."name")
      FROM "public"."author" AS "_author_1"
      WHERE "_author_1"."id" = ($1)::int4 AND ("_author_1"."id" = ($2)::int4)
      LIMIT 1)))::text;
