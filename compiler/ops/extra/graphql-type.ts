// GraphQL type references as written in custom types and action arguments: `Int`, `[String!]!`.

import { isGraphqlName } from '../../../runtime/errors/index.js';

/** The named type at the bottom of a type reference, or undefined when the text is not one. */
export function baseTypeName(text: string): string | undefined {
  let s = text.trim();
  if (s.endsWith('!')) s = s.slice(0, -1).trim();
  if (s.startsWith('[')) {
    if (!s.endsWith(']')) return undefined;
    return baseTypeName(s.slice(1, -1));
  }
  return isGraphqlName(s) ? s : undefined;
}
