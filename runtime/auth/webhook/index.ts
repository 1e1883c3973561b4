/** Auth webhook mode as an Authenticator (GET or POST, answers cached per Cache-Control / Expires). */
export { createWebhookAuthenticator, parseWebhookMode, sessionResponseHeaders, type WebhookAuthenticator, type WebhookMode,
  type WebhookOptions, type WebhookLogEntry } from './webhook.js';
