/** The svc_catalog tables of event delivery: event log per source, cron and one-off events in the metadata database. */
export { ensureSourceEventCatalog, ensureScheduledCatalog } from './catalog.js';
/** The event triggers of a metadata document, typed (definitions with defaults filled). */
export { eventTriggersOf, eventTriggersOfSource, type EventTriggerDef, type OperationSpec, type TriggerDefinition, type RetryConf, type HeaderConf, type ColumnSpec } from './definitions.js';
/** The event trigger operations of the metadata API and the upkeep of capture triggers after each change. */
export { eventTriggerExtension } from './event-ops.js';
/** Installs, replaces and drops a source's capture triggers as a metadata change asks (reload: all recreated). */
export { syncEventTriggers, recreateEventTriggers, type SyncInput, type SyncReport } from './sync.js';
/** The SQL of capture: insert_event_log, one function and AFTER ROW trigger per (trigger, operation). */
export { installCapture, captureName, capturesOf, INSERT_EVENT_LOG, type Capture, type CaptureOp } from './capture.js';
/** Delivery settings (pool size, batch size, fetch interval, shutdown grace, lock timeout) and their SVC_GRAPHQL_* environment. */
export { workerSettingsFromEnv, DEFAULT_WORKER_SETTINGS, type WorkerSettings } from './settings.js';
/** The HTTP pool every worker's webhook calls share (a bounded number of calls, one connection pool). */
export { HttpPool } from './http-pool.js';
/** One webhook call with its invocation log shapes. */
export { deliverWebhook, type WebhookCall, type Attempt, type Outcome } from './deliver.js';
/** The event trigger delivery workers: a fetch loop per source database. */
export { startEventWorkers, type EventWorkers, type EventWorkerOptions, type ServedSources } from './event-worker.js';
/** The cron and one-off scheduled event worker on the metadata database. */
export { startScheduledWorkers, type ScheduledWorkers, type ScheduledWorkerOptions } from './scheduled-worker.js';
/** Cron occurrences (croner, UTC) and the upkeep of hdb_cron_events. */
export { nextOccurrences, generateCronEvents, UPCOMING_CRON_EVENTS } from './cron-schedule.js';
/** The scheduled event operations of the metadata API and the cron events that follow each change. */
export { scheduledEventExtension, type ScheduledExtensionOptions } from './scheduled-ops.js';
/** Cron trigger definitions of a metadata document, typed. */
export { cronTriggersOf, type CronTriggerDef, type ScheduledRetryConf } from './scheduled-definitions.js';
/** Refuses a change defining an action or cron trigger whose webhook or headers need an unset environment variable. */
export { webhookEnvironmentExtension, templateProblem } from './webhook-environment.js';
