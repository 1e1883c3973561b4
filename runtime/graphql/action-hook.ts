// How the engine hands an operation with action fields to the action executor (runtime/actions,
// issue 18), which sits above this folder: the engine only asks whether an operation is the
// executor's and gives it the prepared operation and a way to run the operation's other fields.

import type { GraphQLSchema } from 'graphql';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { Dialect } from '../sql/index.js';
import type { Prepared } from './prepare.js';

/** One request with action fields, as the executor receives it. */
export interface ActionRequest {
  readonly prepared: Prepared;
  readonly variables: { readonly [k: string]: unknown };
  readonly request: GraphQLRequest;
  readonly session: Session;
  readonly schema: GraphQLSchema;
  readonly dialect: Dialect;
  /** The client's request headers (lower-case names), for `forward_client_headers`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Where the Set-Cookie values of synchronous handlers' answers go (the HTTP response sends them). */
  readonly responseCookies?: string[] | undefined;
  /** The driver of a source as the session's role reads it (its time limit applied). */
  readonly readerFor: (source: string) => Driver;
  /** Runs the operation with only these root selections (no action among them): the response text `{"data":...}`. */
  readonly runOthers: (prepared: Prepared) => Promise<string>;
}

/** The action executor as the engine sees it. */
export interface ActionHook {
  /** True when the operation selects an action field of the role's schema at its root. */
  claims(prepared: Prepared, role: string): boolean;
  /** Runs the operation; answers the whole response text (`{"data":...}` or `{"errors":[...]}`). */
  run(req: ActionRequest): Promise<string>;
  /** What the operation's action fields do, as SQL comments and statements (kiln inspect --query); nothing is called. */
  describe(req: Omit<ActionRequest, 'runOthers' | 'readerFor' | 'headers'>): string;
}
