// The text a decimal number reaches PostgreSQL as, which fixes the scale a `numeric` value keeps
// (PostgreSQL stores the scale of its input: `1.50` stays `1.50`). Hasura sends a number in one of
// two forms, and the scale a client reads back follows from them:
// - as text, written the way Haskell's Data.Scientific shows a number: the values of GraphQL
//   mutations (Hasura's Backends/Postgres SQL/Value.hs, txtEncodedVal: `show` of the Scientific).
//   An integer gains `.0` (`5` is `5.0`), and below 0.1 or from 10^7 up it is written with an
//   exponent (`-1E-30` is `-1.0e-30`, whose scale is 31, not 30);
// - as a binary numeric parameter: the values of queries and of the v1 DML API (binEncoder, through
//   postgresql-binary), whose display scale is the number's own scale rounded up to a multiple of 4,
//   the size of one base-10000 digit (`12345.67` is stored as `12345.6700`).

/** A decimal's sign, its digits without leading zeros, and the power of ten of the last digit. */
interface Decimal { readonly negative: boolean; readonly digits: string; readonly exponent: number }

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function decimalOf(value: number | string): Decimal | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const frac = m[3] ?? '';
  const digits = `${m[2]}${frac}`.replace(/^0+/, '');
  return { negative: m[1] === '-' && digits !== '', digits, exponent: Number(m[4] ?? 0) - frac.length };
}

/**
 * `value` as Haskell shows a Scientific (`formatScientific Generic`): with d1..dn the significant
 * digits and the value 0.d1..dn × 10^e, fixed notation when 0 <= e <= 7 (`12345.67`, `5.0`,
 * `0.5`), else `d1.d2..dn e(e-1)` (`1.0e-30`, `1.2345678e7`). Text that is not a plain decimal is
 * left as it is (PostgreSQL judges it).
 */
export function scientificText(value: number | string): number | string {
  const d = decimalOf(value);
  if (!d) return value;
  const sig = d.digits.replace(/0+$/, '');
  if (sig === '') return '0.0';
  const e = d.digits.length + d.exponent;
  const sign = d.negative ? '-' : '';
  if (e < 0 || e > 7) return `${sign}${sig[0]}.${sig.length > 1 ? sig.slice(1) : '0'}e${e - 1}`;
  if (e === 0) return `${sign}0.${sig}`;
  const whole = sig.length >= e ? sig.slice(0, e) : sig.padEnd(e, '0');
  const rest = sig.slice(e);
  return `${sign}${whole}.${rest === '' ? '0' : rest}`;
}

/**
 * A JSON number as a binary numeric parameter carries it: its digits, with the scale rounded up
 * to a multiple of 4 (`12345.67` is `12345.6700`, `1e-30` has 32 decimals, integers none).
 * Strings are left as they are (Hasura passes them to PostgreSQL unparsed).
 */
export function binaryNumericText(value: number | string): number | string {
  if (typeof value !== 'number') return value;
  const d = decimalOf(value);
  if (!d) return value;
  const sign = d.negative ? '-' : '';
  if (d.exponent >= 0) return `${sign}${d.digits === '' ? '0' : d.digits}${'0'.repeat(d.digits === '' ? 0 : d.exponent)}`;
  const scale = Math.ceil(-d.exponent / 4) * 4;
  const padded = d.digits.padStart(-d.exponent + 1, '0');
  const whole = padded.slice(0, padded.length + d.exponent);
  return `${sign}${whole}.${padded.slice(whole.length).padEnd(scale, '0')}`;
}

/**
 * A number written without an exponent (`-2E-2` is `-0.02`): what PostgreSQL's money input reads
 * (it refuses exponents; Hasura's money values reach it as numbers). Other text is left as it is.
 */
export function plainDecimalText(value: number | string): number | string {
  const d = decimalOf(value);
  if (!d) return value;
  const sign = d.negative ? '-' : '';
  if (d.digits === '') return '0';
  if (d.exponent >= 0) return `${sign}${d.digits}${'0'.repeat(d.exponent)}`;
  const padded = d.digits.padStart(-d.exponent + 1, '0');
  return `${sign}${padded.slice(0, padded.length + d.exponent)}.${padded.slice(padded.length + d.exponent)}`;
}
