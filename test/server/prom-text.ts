// A parser of the Prometheus text exposition format (version 0.0.4), strict enough that a
// malformed exposition fails the test that reads it: every line is a comment (# HELP, # TYPE),
// blank, or a sample `name{label="value",...} value [timestamp]`.

/** One sample line. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A parsed exposition: the declared type of each family and every sample. */
export interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const v = Number(text);
  if (text === '' || Number.isNaN(v)) throw new Error(`bad sample value ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  return v;
}

function parseLabels(s: string, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1; // after '{'
  for (;;) {
    while (s[i] === ' ') i++;
    if (s[i] === '}') return { labels, rest: s.slice(i + 1) };
    const m = LABEL.exec(s.slice(i));
    if (!m) throw new Error(`bad label name in ${JSON.stringify(line)}`);
    i += m[0].length;
    if (s[i] !== '=' || s[i + 1] !== '"') throw new Error(`expected ="..." after label ${m[0]} in ${JSON.stringify(line)}`);
    i += 2;
    let value = '';
    for (;;) {
      const c = s[i];
      if (c === undefined) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i + 1];
        if (e === 'n') value += '\n';
        else if (e === '\\' || e === '"') value += e;
        else throw new Error(`bad escape \\${e} in ${JSON.stringify(line)}`);
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
    if (m[0] in labels) throw new Error(`label ${m[0]} repeated in ${JSON.stringify(line)}`);
    labels[m[0]] = value;
    i++;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') throw new Error(`expected , or } in ${JSON.stringify(line)}`);
  }
}

/** Parses an exposition; throws on the first malformed line. */
export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/.exec(line);
      if (!m) {
        if (/^# (HELP|TYPE)/.test(line)) throw new Error(`bad comment line ${JSON.stringify(line)}`);
        continue; // other comments are allowed
      }
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3] ?? '')) throw new Error(`bad type in ${JSON.stringify(line)}`);
        if (types.has(m[2]!)) throw new Error(`type of ${m[2]} declared twice`);
        types.set(m[2]!, m[3]!);
      }
      continue;
    }
    const nm = NAME.exec(line);
    if (!nm) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
    let rest = line.slice(nm[0].length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest, line));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) throw new Error(`bad sample line ${JSON.stringify(line)}`);
    samples.push({ name: nm[0], labels, value: parseValue(parts[0]!, line) });
  }
  return { types, samples };
}

/** The value of the one sample with this name whose labels include `labels` (0 when there is none). */
export function valueOf(e: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number {
  const found = e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
