/** Running operations with action fields: handler calls, output checks, relationships to tables. */
export { ActionExecutor, sessionVariables, type ActionExecutorOptions } from './executor.js';
/** One handler call: URL templates, headers, timeout, bounded answer. */
export { callHandler, handlerHeaders, handlerUrl, HttpFailure, MAX_RESPONSE_BYTES, type Environment, type HandlerRequest, type HandlerResponse } from './handler.js';
/** Asynchronous actions: the log table and the worker that delivers the calls. */
export { asyncActionsInterval, startActionWorker, type ActionWorkerOptions } from './async-worker.js';
export { ensureActionLog } from './async-log.js';
