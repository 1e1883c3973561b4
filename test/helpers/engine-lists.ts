// Reading and editing the lists of JSON texts a written engine.mjs holds (`const <name> = [`, one
// item a line), as the tests that edit a bundle's templates do.

/** The items of one of engine.mjs's lists of JSON texts, each with its line. */
export function listLines(text: string, name: string): { line: string; item: unknown[] }[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`const ${name} = [`));
  if (start < 0) throw new Error(`engine.mjs has no list ${name}`);
  const out: { line: string; item: unknown[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim().startsWith('"')) break;
    out.push({ line, item: JSON.parse(JSON.parse(line.trim().replace(/,$/, '')) as string) as unknown[] });
  }
  return out;
}

/** `text` with the list item of `line` replaced by `item`. */
export function replaceItem(text: string, line: string, item: unknown): string {
  return text.replace(line, line.replace(/"(?:[^"\\]|\\.)*"/, JSON.stringify(JSON.stringify(item))));
}

/** `text` with `item` added at the end of list `name`, and the index it has there. */
export function appendItem(text: string, name: string, item: unknown): { text: string; index: number } {
  const items = listLines(text, name);
  const last = items[items.length - 1]!.line;
  const indent = /^\s*/.exec(last)![0];
  return { text: text.replace(last, `${last}\n${indent}${JSON.stringify(JSON.stringify(item))},`), index: items.length };
}
