// Actions and custom types as the bundle carries them (spec part A 2.11, reference/actions.md):
// the resolved custom types, and per action its definition with the handler and header values
// still as written (`{{ENV}}` templates and `value_from_env` are read at run time, never compiled in).

import type { Json } from './json.js';
/** `source:schema.name` (model.ts TableId; not imported, so the two files do not import each other). */
type TableId = string;

/** The custom types and actions of a bundle (absent from the model when there are none). */
export interface ActionsModel {
  readonly scalars: readonly CustomScalarModel[];
  readonly enums: readonly CustomEnumModel[];
  readonly inputObjects: readonly CustomInputObjectModel[];
  readonly objects: readonly CustomObjectModel[];
  /** Database scalars the custom types or actions reuse (`uuid`, `jsonb`): they join every schema that shows those. */
  readonly reusedScalars: readonly string[];
  /** Sorted by name. */
  readonly actions: readonly ActionModel[];
}

export interface CustomScalarModel {
  readonly name: string;
  readonly description: string | null;
}

export interface CustomEnumModel {
  readonly name: string;
  readonly description: string | null;
  readonly values: readonly { readonly value: string; readonly description: string | null; readonly isDeprecated: boolean }[];
}

/** A field of a custom (input) object type; `type` is GraphQL type text (`[String!]!`). */
export interface CustomFieldModel {
  readonly name: string;
  readonly type: string;
  readonly description: string | null;
}

export interface CustomInputObjectModel {
  readonly name: string;
  readonly description: string | null;
  readonly fields: readonly CustomFieldModel[];
}

/** A relationship of a custom object type to a table: the table's rows whose columns equal the object's fields. */
export interface CustomRelationshipModel {
  readonly name: string;
  readonly kind: 'object' | 'array';
  readonly target: TableId;
  /** Pairs of (field of the object, column of the table), sorted by field. */
  readonly mapping: readonly (readonly [string, string])[];
}

export interface CustomObjectModel {
  readonly name: string;
  readonly description: string | null;
  readonly fields: readonly CustomFieldModel[];
  readonly relationships: readonly CustomRelationshipModel[];
}

/** A header sent to a handler: a value, or the environment variable read when the call is made. */
export type HeaderModel =
  | { readonly name: string; readonly kind: 'value'; readonly value: string }
  | { readonly name: string; readonly kind: 'env'; readonly env: string };

export interface ActionModel {
  readonly name: string;
  readonly type: 'query' | 'mutation';
  readonly kind: 'synchronous' | 'asynchronous';
  readonly arguments: readonly CustomFieldModel[];
  /** GraphQL type text of the output (`[SampleOutput!]`, `uuid`). */
  readonly outputType: string;
  /** The handler URL as written, `{{ENV_VAR}}` templates unresolved. */
  readonly handler: string;
  readonly headers: readonly HeaderModel[];
  readonly forwardClientHeaders: boolean;
  /** Seconds (default 30). */
  readonly timeout: number;
  /** Roles with an action permission, sorted (admin always has the action). */
  readonly roles: readonly string[];
  readonly comment: string | null;
  readonly requestTransform?: Json;
  readonly responseTransform?: Json;
}
