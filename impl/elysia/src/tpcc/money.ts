// Exact money: DECIMAL values arrive from mysql2 as strings ('-10.00', '0.1234') and are
// computed as integer cents and ten-thousandths, never as floats.

/** '12.34' → 1234, '-10.00' → -1000. */
export function cents(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new Error(`not an amount of money: ${text}`);
  const value = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -value : value;
}

/** '0.1234' → 1234. */
export function tenThousandths(text: string): number {
  const m = /^0?\.(\d{1,4})$/.exec(text);
  if (!m) throw new Error(`not a rate: ${text}`);
  return Number(m[1]!.padEnd(4, '0'));
}

/** 1234 → '12.34' (the text a DECIMAL column takes exactly). */
export function centsText(value: number): string {
  const abs = Math.abs(value);
  return `${value < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents as the JSON number the API answers (1234 → 12.34). */
export const money = (value: number): number => value / 100;

/** a / b rounded half away from zero (b > 0, both integers). */
export function roundDiv(a: number, b: number): number {
  const q = Math.floor(Math.abs(a) / b);
  const rounded = 2 * (Math.abs(a) - q * b) >= b ? q + 1 : q;
  return a < 0 ? -rounded : rounded;
}
