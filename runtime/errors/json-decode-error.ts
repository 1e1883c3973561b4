// The characters a JSON value can start with (aeson's `value` looks at the first one).
const VALUE_START = /^[{["\-0-9tfn]/;

/**
 * aeson's `eitherDecode` message for a text that is not JSON: "not enough input" for an empty or
 * cut-short one, "Failed reading: not a valid json value at '<the rest, without white space>'"
 * for one that no JSON value starts, "endOfInput" for a JSON value followed by more.
 */
export function jsonDecodeError(text: string): string {
  const rest = text.replace(/\s+/g, '');
  if (rest === '') return 'Error in $: not enough input';
  if (!VALUE_START.test(rest)) return `Error in $: Failed reading: not a valid json value at '${rest}'`;
  try {
    JSON.parse(text);
  } catch (e) {
    // V8 names a whole value followed by more ("Unexpected non-whitespace character after JSON"),
    // and a value cut short ("Unexpected end of JSON input", or a position at the end of the text).
    const message = e instanceof Error ? e.message : '';
    if (message.includes('after JSON')) return 'Error in $: endOfInput';
    const at = /at position (\d+)/.exec(message);
    if (message.includes('end of JSON input') || (at && Number(at[1]) >= text.trimEnd().length)) return 'Error in $: not enough input';
  }
  return 'Error in $: Failed reading: not a valid json value';
}
