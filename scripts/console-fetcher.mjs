// The console's fetcher (bundled into /console by scripts/build-console.mjs): queries and
// mutations are POSTed to the GraphQL endpoint; a subscription opens a WebSocket speaking
// graphql-transport-ws, sends the headers of GraphiQL's headers editor in `connection_init`
// (as Kiln reads them, reference/subscriptions.md), and yields each `next` until the server
// completes it or GraphiQL stops it (which sends `complete` and closes the socket).
// Plain JavaScript with the WebSocket and fetch given in, so a test can run it under Node.
import { getOperationAST, parse } from 'graphql';

const DONE = Symbol('done');

/** True when the operation GraphiQL runs is a subscription (a document that does not parse is not). */
export function isSubscription(params, documentAST) {
  try {
    const doc = documentAST ?? parse(params.query);
    return getOperationAST(doc, params.operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}

/** The WebSocket URL of an HTTP endpoint path as the page was loaded from (`ws:` or `wss:`). */
export function webSocketUrl(location, endpoint) {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${endpoint}`;
}

function subscribe(WebSocketImpl, url, params, headers) {
  const queue = [];
  let waiting = null;
  let done = false;
  const socket = new WebSocketImpl(url, 'graphql-transport-ws');
  const push = (item) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(item);
    } else queue.push(item);
  };
  const finish = () => {
    if (done) return;
    done = true;
    push(DONE);
    if (socket.readyState === 0 || socket.readyState === 1) socket.close(1000, 'Normal Closure');
  };
  const send = (m) => socket.send(JSON.stringify(m));
  socket.onopen = () => send({ type: 'connection_init', payload: { headers } });
  socket.onmessage = (event) => {
    let m;
    try {
      m = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (m.type === 'connection_ack') send({ id: '1', type: 'subscribe', payload: params });
    else if (m.type === 'ping') send({ type: 'pong' });
    else if (m.type === 'next' && m.id === '1') push(m.payload);
    else if (m.type === 'error' && m.id === '1') {
      push({ errors: m.payload });
      finish();
    } else if (m.type === 'complete' && m.id === '1') finish();
  };
  socket.onclose = (event) => {
    // Closed by the server before the operation ended: the reason is the error to show (4403 Forbidden, ...).
    if (!done) push({ errors: [{ message: `the WebSocket closed: ${event.code} ${event.reason || ''}`.trim() }] });
    finish();
  };
  const result = (item) => (item === DONE ? { done: true, value: undefined } : { done: false, value: item });
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (queue.length > 0) return Promise.resolve(result(queue.shift()));
      if (done) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => { waiting = (item) => resolve(result(item)); });
    },
    return() {
      if (!done && socket.readyState === 1) send({ id: '1', type: 'complete' });
      finish();
      return Promise.resolve({ done: true, value: undefined });
    },
  };
}

/**
 * GraphiQL's fetcher for a Kiln endpoint. `options.headers` are the headers editor's (admin
 * secret, X-Svc-Role and other session variables); they go with every POST and in the
 * subscription's `connection_init`.
 */
export function createKilnFetcher({ endpoint, wsUrl, WebSocketImpl, fetchImpl }) {
  return async function fetcher(params, options) {
    const headers = { ...(options && options.headers) };
    if (isSubscription(params, options && options.documentAST)) return subscribe(WebSocketImpl, wsUrl, params, headers);
    const response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(params),
    });
    return response.json();
  };
}
