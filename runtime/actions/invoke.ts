// One action call and the mapping of its answer (reference/actions.md §3, Hasura's callWebhook):
// a 2xx JSON answer is the output (checked against the type by the caller), a 4xx answer
// `{message, code?, extensions?}` is the client's error, anything else (another status, a body
// that is not JSON, no answer in time) an `unexpected` error whose `internal` holds the exchange.

import type { ActionModel, Json } from '../bundle/index.js';
import { ActionFailure } from './failure.js';
import { callHandler, handlerHeaders, handlerUrl, HttpFailure, parseBody, type Environment } from './handler.js';

/** The body a handler receives. */
export interface ActionPayload {
  readonly action: { readonly name: string };
  readonly input: Json;
  readonly session_variables: { readonly [k: string]: string };
  readonly request_query?: string;
}

/** A 2xx answer: the body, and the exchange for the errors of the output check. */
export interface Answer {
  readonly body: Json;
  readonly internal: Json;
}

/** Calls the handler of `action`; answers its 2xx body or throws the ActionFailure the client sees. */
export async function invokeAction(action: ActionModel, payload: ActionPayload, clientHeaders: Readonly<Record<string, string>>, env: Environment): Promise<Answer> {
  const configured = action.headers.map((h) => ({ name: h.name, value: h.kind === 'value' ? h.value : env[h.env] ?? '' }));
  const requestInfo: Json = { body: payload as unknown as Json, url: action.handler, headers: configured, transformed_request: null };
  const url = handlerUrl(action.handler, env);
  const headers: [string, string][] = [['content-type', 'application/json'], ...handlerHeaders(action, env, clientHeaders)];
  let res;
  try {
    res = await callHandler({ url, method: 'POST', headers, body: JSON.stringify(payload) }, action.timeout);
  } catch (e) {
    if (!(e instanceof HttpFailure)) throw e;
    throw new ActionFailure('http exception when calling webhook', 'unexpected', { type: e.kind, message: e.message, request: requestInfo });
  }
  const body = parseBody(res.text);
  const responseInfo: Json = { status: res.status, body: body === undefined ? res.text : body, headers: res.headers.map(([name, value]) => ({ name, value })) };
  const internal: Json = { error: 'unexpected response', response: responseInfo, request: requestInfo };
  if (body === undefined) throw new ActionFailure('not a valid json response from webhook', 'unexpected', internal);
  if (res.status >= 200 && res.status < 300) return { body, internal };
  if (res.status >= 400 && res.status < 500) throw clientError(body, internal);
  throw new ActionFailure('internal error', 'unexpected', { error: `expecting 2xx or 4xx status code, but found ${res.status}`, request: requestInfo, response: responseInfo });
}

/** A 4xx answer `{message, code?, extensions?}` as the client's error (Hasura's ActionWebhookErrorResponse). */
function clientError(body: Json, internal: Json): ActionFailure {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body['message'] !== 'string') {
    return new ActionFailure('the error response of the action webhook is not an object with a "message"', 'unexpected', internal);
  }
  const code = typeof body['code'] === 'string' ? body['code'] : 'unexpected';
  const extensions = body['extensions'];
  return new ActionFailure(body['message'], code, undefined, extensions !== undefined && extensions !== null ? extensions : undefined);
}
