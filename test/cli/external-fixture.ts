// A schema and metadata that exist only in this test: two schemas, foreign keys across them,
// jsonb and numeric columns, and a Hasura metadata directory in YAML with `!include`s.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Tables, keys and rows; users 1, 2 and 4 are active, invoices 100 and 102 belong to user 1. */
export const SCHEMA_SQL = `
CREATE SCHEMA sales;
CREATE TABLE public.users (
  id integer PRIMARY KEY, name text NOT NULL, created_at timestamptz NOT NULL, profile jsonb NOT NULL DEFAULT '{}');
CREATE TABLE public.orders (
  id integer PRIMARY KEY, user_id integer NOT NULL REFERENCES public.users (id), amount numeric(10, 2) NOT NULL, status text NOT NULL);
CREATE TABLE sales.invoice (
  id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES public.users (id), order_id integer REFERENCES public.orders (id),
  total numeric(10, 2) NOT NULL);
CREATE TABLE sales.invoice_item (
  id integer PRIMARY KEY, invoice_id integer NOT NULL REFERENCES sales.invoice (id), sku text NOT NULL, qty integer NOT NULL);
INSERT INTO public.users VALUES
  (1, 'ann', '2024-01-01T10:00:00Z', '{"active": true, "tags": ["a"]}'),
  (2, 'bob', '2024-01-02T10:00:00Z', '{"active": true, "tags": ["b"]}'),
  (3, 'cy', '2024-01-03T10:00:00Z', '{"active": false}'),
  (4, 'dee', '2024-01-04T10:00:00Z', '{"active": true, "tags": ["a", "b"]}');
INSERT INTO public.orders VALUES (10, 1, 19.90, 'paid'), (11, 1, 5.00, 'open'), (12, 2, 100.00, 'paid'), (13, 3, 7.25, 'paid');
INSERT INTO sales.invoice VALUES (100, 1, 10, 19.90), (101, 2, 12, 100.00), (102, 1, 11, 5.00);
INSERT INTO sales.invoice_item VALUES (1000, 100, 'A-1', 1), (1001, 100, 'B-2', 2), (1002, 101, 'C-3', 1), (1003, 102, 'D-4', 5);
`;

// The source names no database: `--database-url` is its database (DESIGN.md, "Command line").
const DATABASES = `
- name: default
  kind: postgres
  tables: !include default/tables/tables.yaml
`;

// Both include spellings: the tag above, quoted strings here.
const TABLES = `
- "!include public_users.yaml"
- "!include public_orders.yaml"
- "!include sales_invoice.yaml"
- "!include sales_invoice_item.yaml"
`;

const USERS = `
table:
  schema: public
  name: users
configuration:
  custom_root_fields:
    select: all_users
    select_by_pk: user
  column_config:
    created_at:
      custom_name: createdAt
array_relationships:
  - name: orders
    using:
      foreign_key_constraint_on:
        table: { schema: public, name: orders }
        column: user_id
select_permissions:
  - role: customer
    permission:
      columns: [id, name, created_at]
      filter:
        id: { _eq: X-Svc-User-Id }
  - role: limited
    permission:
      columns: [id, name, created_at, profile]
      filter:
        profile: { _contains: { active: true } }
      limit: 2
`;

const ORDERS = `
table:
  schema: public
  name: orders
object_relationships:
  - name: user
    using:
      foreign_key_constraint_on: user_id
select_permissions:
  - role: limited
    permission:
      columns: "*"
      filter: {}
`;

const INVOICE = `
table:
  schema: sales
  name: invoice
configuration:
  custom_name: Invoice
object_relationships:
  - name: customer
    using:
      foreign_key_constraint_on: customer_id
array_relationships:
  - name: items
    using:
      foreign_key_constraint_on:
        table: { schema: sales, name: invoice_item }
        column: invoice_id
select_permissions:
  - role: customer
    permission:
      columns: [id, customer_id, order_id, total]
      filter:
        customer_id: { _eq: X-Svc-User-Id }
      allow_aggregations: true
`;

const INVOICE_ITEM = `
table:
  schema: sales
  name: invoice_item
object_relationships:
  - name: invoice
    using:
      foreign_key_constraint_on: invoice_id
select_permissions:
  - role: customer
    permission:
      columns: [id, invoice_id, sku, qty]
      filter:
        invoice: { customer_id: { _eq: X-Svc-User-Id } }
`;

/** Writes the metadata directory (version.yaml, databases/...) under `dir`. */
export async function writeMetadataDir(dir: string): Promise<void> {
  const tables = join(dir, 'databases', 'default', 'tables');
  await mkdir(tables, { recursive: true });
  await writeFile(join(dir, 'version.yaml'), 'version: 3\n');
  await writeFile(join(dir, 'databases', 'databases.yaml'), DATABASES);
  await writeFile(join(tables, 'tables.yaml'), TABLES);
  await writeFile(join(tables, 'public_users.yaml'), USERS);
  await writeFile(join(tables, 'public_orders.yaml'), ORDERS);
  await writeFile(join(tables, 'sales_invoice.yaml'), INVOICE);
  await writeFile(join(tables, 'sales_invoice_item.yaml'), INVOICE_ITEM);
}
