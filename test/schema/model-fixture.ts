// A hand-built BundleModel for the schema tests: author/article with jsonb, numeric, bigint,
// array and enum columns, a computed field, two functions, and roles admin, user, anonymous.

import type {
  BundleModel, ColumnModel, RoleRoots, RootField, ScalarCategory, SelectPermissionModel, TableModel,
} from '../../runtime/bundle/index.js';

type ColumnOptions = Partial<Omit<ColumnModel, 'name' | 'field' | 'scalar'>>;

const categories: { [scalar: string]: ScalarCategory } = {
  Int: 'int', bigint: 'int', numeric: 'numeric', String: 'string', Boolean: 'boolean', jsonb: 'json',
  timestamptz: 'datetime', colors_enum: 'enum', _text: 'other',
};
const comparable = new Set(['Int', 'bigint', 'numeric', 'String', 'timestamptz']);
const numeric = new Set(['Int', 'bigint', 'numeric']);

function col(name: string, scalar: string, options: ColumnOptions = {}): ColumnModel {
  return {
    name, field: name, scalar, type: scalar, category: categories[scalar] ?? 'other', nullable: true, isArray: false,
    comparable: comparable.has(scalar), numeric: numeric.has(scalar), comment: null, ...options,
  };
}

function table(name: string, fields: Partial<TableModel>): TableModel {
  return {
    id: `default:public.${name}`, source: 'default', schema: 'public', name, typeName: name, comment: null,
    columns: [], primaryKey: [], uniqueConstraints: [], relationships: [], computedFields: [],
    rootFieldNames: { select: name, select_by_pk: `${name}_by_pk`, select_aggregate: `${name}_aggregate` },
    rootFieldComments: {}, enumValues: null, ...fields,
  };
}

export const ids = {
  author: 'default:public.author', article: 'default:public.article', colors: 'default:public.colors', note: 'default:public.note',
};

const colors = table('colors', {
  columns: [col('value', 'String', { nullable: false }), col('comment', 'String')],
  primaryKey: ['value'],
  enumValues: [{ value: 'red', comment: 'the colour of blood' }, { value: 'blue', comment: null }],
});

const author = table('author', {
  comment: 'people who write',
  columns: [
    col('id', 'Int', { nullable: false }), col('name', 'String', { nullable: false, comment: 'full name' }),
    col('rating', 'numeric'), col('info', 'jsonb', { comparable: false }), col('secret', 'String'),
    col('tags', '_text', { isArray: true }), col('favorite_color', 'colors_enum', { comparable: false }),
    col('created_at', 'timestamptz'),
  ],
  primaryKey: ['id'],
  relationships: [{ name: 'articles', kind: 'array', target: ids.article, mapping: [['id', 'author_id']], nullable: true, comment: null }],
  computedFields: [
    {
      name: 'full_name', function: { schema: 'public', name: 'author_full_name' }, tableArgument: 0, sessionArgument: null,
      args: [], returns: { kind: 'scalar', type: 'text', scalar: 'String', category: 'string' }, comment: null,
    },
    {
      name: 'matching_articles', function: { schema: 'public', name: 'author_matching_articles' }, tableArgument: 0,
      sessionArgument: null, args: [{ name: 'search', position: 1, type: 'text', scalar: 'String', hasDefault: false }],
      returns: { kind: 'table', table: ids.article, set: true }, comment: 'articles whose title matches',
    },
  ],
  rootFieldComments: { select_by_pk: 'one author' },
});

const article = table('article', {
  columns: [
    col('id', 'Int', { nullable: false }), col('title', 'String', { nullable: false }),
    col('author_id', 'Int', { nullable: false }), col('views', 'bigint'),
  ],
  primaryKey: ['id'],
  relationships: [{ name: 'author', kind: 'object', target: ids.author, mapping: [['author_id', 'id']], nullable: false, comment: null }],
  rootFieldComments: { select: '' },
});

const note = table('note', { columns: [col('id', 'Int', { nullable: false }), col('body', 'String')], primaryKey: ['id'] });

const tables = [colors, author, article, note];

const truePredicate = { kind: 'true' } as const;

function everything(t: TableModel): SelectPermissionModel {
  return {
    columns: t.columns.map((c) => c.name), computedFields: t.computedFields.map((cf) => cf.name),
    filter: truePredicate, limit: null, allowAggregations: true,
  };
}

const userPerms: { [id: string]: SelectPermissionModel } = {
  // `id` and `secret` hidden: no author_by_pk, no `secret` anywhere.
  [ids.author]: {
    columns: ['name', 'rating', 'info', 'tags', 'favorite_color'], computedFields: ['full_name'],
    filter: { kind: 'column', column: 'name', type: 'text', op: '_eq', value: { kind: 'session', name: 'x-svc-user-id' } },
    limit: 10, allowAggregations: false,
  },
  [ids.article]: { columns: ['id', 'title', 'author_id', 'views'], computedFields: [], filter: truePredicate, limit: null, allowAggregations: false },
  // Count-only access (agg_perm/article_agg_with_role_without_select_access).
  [ids.note]: { columns: [], computedFields: [], filter: truePredicate, limit: null, allowAggregations: true },
};

// Every select root field of every table; the schema keeps those the role's permission allows.
function allRoots(perms: { [id: string]: SelectPermissionModel }): RoleRoots {
  const query: { [field: string]: RootField } = {};
  for (const id of Object.keys(perms)) {
    const t = tables.find((x) => x.id === id)!;
    query[t.name] = { kind: 'select', table: id };
    query[`${t.name}_by_pk`] = { kind: 'select_by_pk', table: id };
    query[`${t.name}_aggregate`] = { kind: 'select_aggregate', table: id };
  }
  if (perms[ids.article]) {
    query['search_articles'] = { kind: 'function', function: 'default:public.search_articles', table: ids.article };
    query['search_articles_aggregate'] = { kind: 'function_aggregate', function: 'default:public.search_articles', table: ids.article };
    query['newest_article'] = { kind: 'function', function: 'default:public.newest_article', table: ids.article };
  }
  return { query, subscription: { ...query } };
}

const adminPerms = Object.fromEntries(tables.map((t) => [t.id, everything(t)]));

export const model: BundleModel = {
  engineVersion: 'test',
  sources: [{ name: 'default', dialect: 'postgres', databaseUrl: null }],
  roles: ['admin', 'anonymous', 'user'],
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  roots: { admin: allRoots(adminPerms), user: allRoots(userPerms), anonymous: { query: {}, subscription: {} } },
  select: { admin: adminPerms, user: userPerms },
  functions: {
    'default:public.search_articles': {
      id: 'default:public.search_articles', source: 'default', schema: 'public', name: 'search_articles',
      field: 'search_articles', aggregateField: 'search_articles_aggregate',
      args: [
        { name: 'search', position: 0, type: 'text', scalar: 'String', hasDefault: false },
        { name: 'min_views', position: 1, type: 'int8', scalar: 'bigint', hasDefault: true },
      ],
      sessionArgument: null, totalArgs: 2, returns: ids.article, returnsSet: true, comment: null,
    },
    'default:public.newest_article': {
      id: 'default:public.newest_article', source: 'default', schema: 'public', name: 'newest_article',
      field: 'newest_article', aggregateField: 'newest_article_aggregate', args: [],
      sessionArgument: null, totalArgs: 0, returns: ids.article, returnsSet: false, comment: 'the latest article',
    },
  },
  options: { stringifyNumeric: false },
};
