// The GraphQL type names of a table, with its source's type-name customization.

import type { TypeAffix } from './model.js';

/**
 * A table's GraphQL type name of one kind: `kind` is what follows the base (`''` for the object
 * type, `_bool_exp`, `_aggregate`, ...), and the source's prefix and suffix go around the whole
 * (`tpref_author_aggregate_tsuff`), as Hasura applies source type-name customization.
 */
export function typeNameOf(t: { readonly typeName: string; readonly typeAffix?: TypeAffix }, kind = ''): string {
  return `${t.typeAffix?.prefix ?? ''}${t.typeName}${kind}${t.typeAffix?.suffix ?? ''}`;
}
