/**
 * Number formatting exactly as glibc's printf does it, for output that must match C tools byte for byte.
 * JavaScript's toFixed is exact except on ties (it rounds them away from zero where glibc rounds half to even),
 * above 1e21 (it switches to exponent notation) and for negative zero; those cases are handled here.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

function signBit(x: number): boolean {
  f64[0] = x;
  return (u32[HI] & 0x80000000) !== 0;
}

/** C `%.<digits>f` of a double. */
export function cFixed(x: number, digits: number): string {
  if (x !== x) return signBit(x) ? '-nan' : 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const neg = x < 0 || (x === 0 && 1 / x < 0);
  const a = neg ? -x : x;
  let body: string;
  if (a >= 1e21) {
    body = BigInt(a).toString() + (digits > 0 ? '.' + '0'.repeat(digits) : '');
  } else {
    // A tie (exactly half a unit in the last place) happens only when a * 2^(digits+1) is an odd integer.
    const y = a * 2 ** (digits + 1);
    if (Number.isInteger(y) && y % 2 === 1) body = tieHalfEven(y, digits);
    else body = a.toFixed(digits);
  }
  return neg ? '-' + body : body;
}

function tieHalfEven(y: number, digits: number): string {
  // a = y / 2^(digits+1) with y odd, so a * 10^digits = y * 5^digits / 2 exactly, an odd number of halves.
  const m = BigInt(y) * 5n ** BigInt(digits);
  let n = (m - 1n) / 2n;
  if (n % 2n === 1n) n += 1n;
  let s = n.toString();
  if (digits === 0) return s;
  if (s.length <= digits) s = '0'.repeat(digits - s.length + 1) + s;
  return s.slice(0, s.length - digits) + '.' + s.slice(s.length - digits);
}

/** C `%f`. */
export function cF6(x: number): string {
  // The two values darshan counters hold most often.
  if (x === 0 && 1 / x > 0) return '0.000000';
  if (x === -1) return '-1.000000';
  return cFixed(x, 6);
}

/** C `%<width>.<digits>f`: right-aligned, space-padded. */
export function cFixedWidth(x: number, width: number, digits: number): string {
  const s = cFixed(x, digits);
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}

/** Right-aligns `s` in `width` columns, as C `%<width>s` / `%<width>d`. */
export function padStart(s: string, width: number): string {
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const INT_MAX = 2147483647n;

/**
 * C `ctime()` in UTC, including its trailing newline: `Www Mmm dd hh:mm:ss yyyy\n`. Works for any 64-bit time;
 * where glibc's `localtime` would overflow (year beyond int) it returns `(null)` as printf prints a NULL string.
 */
export function cCtimeUtc(t: bigint): string {
  const days = floorDiv(t, 86400n);
  const secs = Number(t - days * 86400n);
  // Civil date from days since 1970-01-01 (proleptic Gregorian), exact in BigInt.
  const z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  if (y - 1900n > INT_MAX || y - 1900n < -INT_MAX - 1n) return '(null)';
  const wd = Number(((days % 7n) + 11n) % 7n); // 1970-01-01 was a Thursday (4)
  const hh = Math.floor(secs / 3600);
  const mm = Math.floor((secs % 3600) / 60);
  const ss = secs % 60;
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  return `${DAYS[wd]} ${MONTHS[Number(m) - 1]}${padStart(String(d), 3)} ${two(hh)}:${two(mm)}:${two(ss)} ${y}\n`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}
