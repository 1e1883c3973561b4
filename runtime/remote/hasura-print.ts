// GraphQL documents written as Hasura writes the calls it makes to a remote schema (its
// graphql-parser printer, Language/GraphQL/Draft/Printer.hs): all on one line, `query` and the
// operation's name followed by a space, selection sets `{ a  b  }` (every field followed by a space,
// fields apart by one more), arguments and object fields `name: value` apart by a bare comma,
// lists `[a,b]`, inline fragments `... on T{ ... }`. A remote's error locations then point where
// they point in Hasura's call.

import { Kind, type ArgumentNode, type DirectiveNode, type DocumentNode, type ObjectFieldNode, type SelectionNode, type SelectionSetNode, type TypeNode, type ValueNode } from 'graphql';

function value(v: ValueNode): string {
  switch (v.kind) {
    case Kind.VARIABLE: return `$${v.name.value}`;
    case Kind.INT: case Kind.FLOAT: case Kind.ENUM: return v.value;
    case Kind.STRING: return JSON.stringify(v.value);
    case Kind.BOOLEAN: return v.value ? 'true' : 'false';
    case Kind.NULL: return 'null';
    case Kind.LIST: return `[${v.values.map(value).join(',')}]`;
    case Kind.OBJECT: return `{${fields(v.fields)}}`;
  }
}

const fields = (fs: readonly (ArgumentNode | ObjectFieldNode)[]): string => fs.map((f) => `${f.name.value}: ${value(f.value)}`).join(',');
const args = (as: readonly ArgumentNode[] | undefined): string => (as?.length ? `(${fields(as)})` : '');
const directives = (ds: readonly DirectiveNode[] | undefined): string => (ds ?? []).map((d) => `@${d.name.value}${args(d.arguments)}`).join(' ');

function type(t: TypeNode): string {
  if (t.kind === Kind.NON_NULL_TYPE) return `${type(t.type)}!`;
  if (t.kind === Kind.LIST_TYPE) return `[${type(t.type)}]`;
  return t.name.value;
}

function selection(s: SelectionNode): string {
  if (s.kind === Kind.FIELD) return `${s.alias ? `${s.alias.value}: ` : ''}${s.name.value}${args(s.arguments)}${directives(s.directives)} ${selectionSet(s.selectionSet)}`;
  if (s.kind === Kind.FRAGMENT_SPREAD) return `...${s.name.value}${directives(s.directives)}`;
  return `... ${s.typeCondition ? `on ${s.typeCondition.name.value}` : ''}${directives(s.directives)}${selectionSet(s.selectionSet)}`;
}

function selectionSet(s: SelectionSetNode | undefined): string {
  return s && s.selections.length > 0 ? `{ ${s.selections.map(selection).join(' ')} }` : '';
}

/** The document in Hasura's one-line form (definitions apart by a newline). */
export function hasuraPrint(doc: DocumentNode): string {
  return doc.definitions.map((d) => {
    if (d.kind === Kind.OPERATION_DEFINITION) {
      const vars = d.variableDefinitions?.length
        ? `(${d.variableDefinitions.map((v) => `$${v.variable.name.value}: ${type(v.type)}${v.defaultValue ? ` = ${value(v.defaultValue)}` : ''}`).join(',')})` : '';
      return `${d.operation} ${d.name?.value ?? ''}${vars}${directives(d.directives)} ${selectionSet(d.selectionSet)}`;
    }
    if (d.kind === Kind.FRAGMENT_DEFINITION) return `fragment ${d.name.value} on ${d.typeCondition.name.value}${directives(d.directives)}${selectionSet(d.selectionSet)}`;
    return '';
  }).join('\n');
}
