// An action's error as the client sees it (reference/actions.md §3): a message and extensions,
// either the handler's own (a 4xx answer with `extensions`) or `{path, code, internal?}`, where
// `internal` (the request and response) is shown to admin only. An asynchronous call stores its
// error in Hasura's other shape, `{path, error, code, internal?}` (`stored`).

import type { Json } from '../bundle/index.js';

/** A failed action call; `extensions` as the handler gave them, or built from `path`, `code` and `internal`. */
export class ActionFailure extends Error {
  constructor(message: string, readonly code: string, readonly internal?: Json, readonly handlerExtensions?: Json, readonly path = '$') {
    super(message);
  }

  /** The GraphQL error object; `internal` only when `showInternal`. */
  body(showInternal: boolean): { message: string; extensions: Json } {
    if (this.handlerExtensions !== undefined) return { message: this.message, extensions: this.handlerExtensions };
    const extensions: { [k: string]: Json } = { path: this.path, code: this.code };
    if (showInternal && this.internal !== undefined) extensions['internal'] = this.internal;
    return { message: this.message, extensions };
  }

  /**
   * The error as an asynchronous call stores it in its `errors` (Hasura's async processor stores the
   * QErr itself: `{path, error, code}`, a 4xx answer's `code` or `unexpected`; never the handler's
   * extensions), with `internal` when the call was made by admin.
   */
  stored(showInternal: boolean): { [k: string]: Json } {
    const out: { [k: string]: Json } = { path: this.path, error: this.message, code: this.code };
    if (showInternal && this.internal !== undefined) out['internal'] = this.internal;
    return out;
  }
}
