import {
  parse, printType, validate, type GraphQLField, type GraphQLInputObjectType, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildRoleSchemas } from '../../compiler/schema/index.js';
import { model } from './model-fixture.js';

const schemas = buildRoleSchemas(model);
const admin = schemas['admin']!;
const user = schemas['user']!;
const anonymous = schemas['anonymous']!;

function type(schema: GraphQLSchema, name: string): GraphQLNamedType {
  const t = schema.getType(name);
  if (!t) throw new Error(`no type ${name}`);
  return t;
}
function fieldNames(schema: GraphQLSchema, name: string): string[] {
  return Object.keys((type(schema, name) as GraphQLObjectType | GraphQLInputObjectType).getFields());
}
function field(schema: GraphQLSchema, typeName: string, name: string): GraphQLField<unknown, unknown> {
  const f = (type(schema, typeName) as GraphQLObjectType).getFields()[name];
  if (!f) throw new Error(`no field ${typeName}.${name}`);
  return f;
}
function errorsOf(schema: GraphQLSchema, query: string): string[] {
  return validate(schema, parse(query)).map((e) => e.message);
}

describe('roles', () => {
  it('builds one schema per model role', () => {
    expect(Object.keys(schemas)).toEqual(['admin', 'anonymous', 'user']);
  });

  it('gives a role with no query field only the no_queries_available placeholder and no subscription root', () => {
    expect(fieldNames(anonymous, 'query_root')).toEqual(['no_queries_available']);
    expect(String(field(anonymous, 'query_root', 'no_queries_available').type)).toBe('String!');
    expect(anonymous.getSubscriptionType()).toBeUndefined();
    expect(anonymous.getMutationType()).toBeUndefined();
    expect(admin.getType('no_queries_available')).toBeUndefined();
    expect(fieldNames(admin, 'query_root')).not.toContain('no_queries_available');
  });

  it('lists the admin root fields sorted by name, in query and subscription alike', () => {
    const expected = [
      'article', 'article_aggregate', 'article_by_pk', 'author', 'author_aggregate', 'author_by_pk', 'colors',
      'colors_aggregate', 'colors_by_pk', 'newest_article', 'note', 'note_aggregate', 'note_by_pk', 'search_articles',
      'search_articles_aggregate',
    ];
    expect(fieldNames(admin, 'query_root')).toEqual(expected);
    expect(fieldNames(admin, 'subscription_root')).toEqual(expected);
  });
});

describe('permissions shape the user schema', () => {
  it('hides a column the role may not read from the object type, bool_exp, order_by and select_column', () => {
    expect(fieldNames(admin, 'author')).toContain('secret');
    expect(fieldNames(user, 'author')).not.toContain('secret');
    expect(fieldNames(user, 'author_bool_exp')).not.toContain('secret');
    expect(fieldNames(user, 'author_order_by')).not.toContain('secret');
    const values = (type(user, 'author_select_column') as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name);
    expect(values).toEqual(['favorite_color', 'info', 'name', 'rating', 'tags']);
    expect(errorsOf(user, '{ author { secret } }')).toEqual(['Cannot query field "secret" on type "author".']);
    expect(errorsOf(user, '{ author(where: {secret: {_eq: "x"}}) { name } }')).toHaveLength(1);
  });

  it('drops <t>_aggregate root fields and <rel>_aggregate fields without allowAggregations', () => {
    expect(fieldNames(user, 'query_root')).not.toContain('author_aggregate');
    expect(fieldNames(user, 'query_root')).not.toContain('article_aggregate');
    expect(fieldNames(user, 'query_root')).not.toContain('search_articles_aggregate');
    expect(fieldNames(user, 'author')).not.toContain('articles_aggregate');
    expect(fieldNames(admin, 'author')).toContain('articles_aggregate');
    expect(user.getType('author_aggregate')).toBeUndefined();
    expect(fieldNames(user, 'author_order_by')).not.toContain('articles_aggregate');
  });

  it('drops <t>_by_pk when a primary-key column is hidden', () => {
    expect(fieldNames(user, 'query_root')).not.toContain('author_by_pk');
    expect(fieldNames(user, 'query_root')).toContain('article_by_pk');
    expect(fieldNames(admin, 'query_root')).toContain('author_by_pk');
  });

  it('gives count no columns argument and no max/min when the role can read no column', () => {
    const count = field(user, 'note_aggregate_fields', 'count');
    expect(count.args.map((a) => a.name)).toEqual(['distinct']);
    expect(fieldNames(user, 'note_aggregate_fields')).toEqual(['count']);
    expect(errorsOf(user, '{ note_aggregate { aggregate { count(columns: [id]) } } }'))
      .toEqual(['Unknown argument "columns" on field "note_aggregate_fields.count".']);
    expect(errorsOf(user, '{ note_aggregate { aggregate { count } } }')).toEqual([]);
    expect(field(admin, 'note_aggregate_fields', 'count').args.map((a) => a.name)).toEqual(['columns', 'distinct']);
  });

  it('leaves out an object type with no readable field, and every field returning it', () => {
    expect(user.getType('note')).toBeUndefined();
    expect(fieldNames(user, 'query_root')).not.toContain('note');
    expect(fieldNames(user, 'note_aggregate')).toEqual(['aggregate']);
    expect(field(user, 'query_root', 'note_aggregate').args.map((a) => a.name)).toEqual(['limit', 'offset', 'where']);
  });

  it('shows permitted scalar computed fields, and table ones whenever the role reads their table', () => {
    expect(fieldNames(user, 'author')).toContain('full_name');
    // Hasura v2 derives a table computed field's permission from its table's (user reads article).
    expect(fieldNames(user, 'author')).toContain('matching_articles');
    expect(fieldNames(admin, 'author')).toContain('matching_articles');
  });
});

describe('types', () => {
  it('makes an object relationship non-null when its columns are NOT NULL, and array relationships lists', () => {
    expect(String(field(admin, 'article', 'author').type)).toBe('author!');
    expect(String(field(admin, 'author', 'articles').type)).toBe('[article!]!');
    expect(field(admin, 'author', 'articles').args.map((a) => a.name))
      .toEqual(['distinct_on', 'limit', 'offset', 'order_by', 'where']);
    expect(String(field(admin, 'author', 'articles_aggregate').type)).toBe('article_aggregate!');
  });

  it('types columns by scalar with their nullability, and gives json columns a path argument', () => {
    expect(String(field(admin, 'author', 'id').type)).toBe('Int!');
    expect(String(field(admin, 'author', 'rating').type)).toBe('numeric');
    expect(String(field(admin, 'author', 'favorite_color').type)).toBe('colors_enum');
    expect(String(field(admin, 'author', 'tags').type)).toBe('_text');
    expect(field(admin, 'author', 'info').args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['path: String']);
    expect(field(admin, 'author', 'name').args).toEqual([]);
  });

  it('gives comparison types Hasura operator sets', () => {
    expect(fieldNames(admin, 'String_comparison_exp')).toEqual([
      '_eq', '_gt', '_gte', '_ilike', '_in', '_iregex', '_is_null', '_like', '_lt', '_lte', '_neq', '_nilike', '_nin',
      '_niregex', '_nlike', '_nregex', '_nsimilar', '_regex', '_similar',
    ]);
    expect(fieldNames(admin, 'Int_comparison_exp')).toEqual(['_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq', '_nin']);
    expect(fieldNames(admin, 'jsonb_comparison_exp')).toEqual([
      '_cast', '_contained_in', '_contains', '_eq', '_gt', '_gte', '_has_key', '_has_keys_all', '_has_keys_any', '_in',
      '_is_null', '_lt', '_lte', '_neq', '_nin',
    ]);
    expect(printType(type(admin, 'jsonb_cast_exp'))).toBe('input jsonb_cast_exp {\n  String: String_comparison_exp\n}');
    expect(fieldNames(admin, 'colors_enum_comparison_exp')).toEqual(['_eq', '_in', '_is_null', '_neq', '_nin']);
    expect(fieldNames(admin, '_text_comparison_exp')).toContain('_contains');
    expect(fieldNames(admin, '_text_comparison_exp')).toContain('_contained_in');
    const inputs = (type(admin, 'numeric_comparison_exp') as GraphQLInputObjectType).getFields();
    expect(String(inputs['_in']!.type)).toBe('[numeric!]');
    expect(String(inputs['_is_null']!.type)).toBe('Boolean');
  });

  it('puts relationships and argument-less computed fields into bool_exp', () => {
    expect(fieldNames(admin, 'author_bool_exp')).toEqual([
      '_and', '_not', '_or', 'articles', 'created_at', 'favorite_color', 'full_name', 'id', 'info', 'name', 'rating',
      'secret', 'tags',
    ]);
    expect(String((type(admin, 'author_bool_exp') as GraphQLInputObjectType).getFields()['articles']!.type)).toBe('article_bool_exp');
  });

  it('builds aggregate field groups from numeric and comparable columns', () => {
    expect(fieldNames(admin, 'author_aggregate_fields')).toEqual([
      'avg', 'count', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance',
    ]);
    expect(printType(type(admin, 'author_avg_fields'))).toBe(
      '"""aggregate avg on columns"""\ntype author_avg_fields {\n  id: Float\n  rating: Float\n}');
    expect(String(field(admin, 'author_sum_fields', 'rating').type)).toBe('numeric');
    expect(fieldNames(admin, 'author_max_fields')).toEqual(['created_at', 'id', 'name', 'rating', 'secret']);
    expect(fieldNames(admin, 'article_aggregate_order_by')).toContain('count');
    expect(fieldNames(admin, 'article_sum_order_by')).toEqual(['author_id', 'id', 'views']);
  });

  it('builds function fields with args, required when an argument has no default', () => {
    const search = field(admin, 'query_root', 'search_articles');
    expect(String(search.type)).toBe('[article!]!');
    expect(search.args.map((a) => `${a.name}: ${String(a.type)}`)[0]).toBe('args: search_articles_args!');
    expect(fieldNames(admin, 'search_articles_args')).toEqual(['min_views', 'search']);
    expect(String(field(admin, 'query_root', 'newest_article').type)).toBe('article');
    expect(field(admin, 'query_root', 'newest_article').args.map((a) => a.name)).not.toContain('args');
    expect(String(field(admin, 'query_root', 'search_articles_aggregate').type)).toBe('article_aggregate!');
    expect(String(field(admin, 'author', 'matching_articles').args[0]!.type)).toBe('author_matching_articles_args!');
  });

  it('uses the enum table values sorted by name with their comments', () => {
    expect(printType(type(admin, 'colors_enum'))).toBe('enum colors_enum {\n  blue\n\n  """the colour of blood"""\n  red\n}');
  });
});

describe('descriptions', () => {
  it('uses Hasura default texts, custom root-field comments, and empty comments to remove them', () => {
    expect(field(admin, 'query_root', 'author').description).toBe('fetch data from the table: "author"');
    expect(field(admin, 'query_root', 'author_aggregate').description).toBe('fetch aggregated fields from the table: "author"');
    expect(field(admin, 'query_root', 'article_by_pk').description)
      .toBe('fetch data from the table: "article" using primary key columns');
    expect(field(admin, 'query_root', 'author_by_pk').description).toBe('one author');
    expect(field(admin, 'query_root', 'article').description).toBeUndefined();
    expect(field(admin, 'query_root', 'search_articles').description).toBe('execute function "search_articles" which returns "article"');
    expect(field(admin, 'query_root', 'newest_article').description).toBe('the latest article');
    expect(type(admin, 'author').description).toBe('people who write');
    expect(type(admin, 'article').description).toBe('columns and relationships of "article"');
    expect(field(admin, 'author', 'full_name').description).toBe('A computed field, executes function "author_full_name"');
    expect(field(admin, 'author', 'name').description).toBe('full name');
    expect(field(admin, 'author', 'articles').description).toBe('An array relationship');
  });
});

it('creates one type object per name within a role', () => {
  expect(field(admin, 'article', 'author').type.toString()).toBe('author!');
  const viaRelationship = (field(admin, 'article', 'author').type as unknown as { ofType: GraphQLNamedType }).ofType;
  expect(viaRelationship).toBe(admin.getType('author'));
  expect(admin.getType('author')).not.toBe(user.getType('author'));
});
