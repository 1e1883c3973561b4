// Webhook URL templates of the metadata (`https://{{HOST}}/hook`): each `{{NAME}}` is an environment
// variable, read when the webhook is called and checked when it is defined. One reading of the form
// for actions, event and cron triggers.

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The URL with each `{{NAME}}` replaced by `value(NAME)` (which may throw for a missing one). */
export function renderUrlTemplate(url: string, value: (name: string) => string): string {
  return url.replace(VARIABLE, (_, name: string) => value(name));
}

/** The variables a URL template names, in order. */
export function urlTemplateVariables(url: string): string[] {
  return [...url.matchAll(VARIABLE)].map((m) => m[1]!);
}
