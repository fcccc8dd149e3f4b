// Exact decimals: DECIMAL(p,2) money as integer cents, DECIMAL(4,4) rates as integer
// ten-thousandths, written with their digits as the database stores them.

/** 1234 → '12.34', -1000 → '-10.00'. */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** '12.34' → 1234 (also '-10.00', '5', '0.5'). */
export function parseCents(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new RangeError(`not an amount of money: ${text}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -cents : cents;
}

/** 1234 → '0.1234' (0..9999). */
export function rateText(tenThousandths: number): string {
  return `0.${String(tenThousandths).padStart(4, '0')}`;
}

/** '0.1234' → 1234. */
export function parseRate(text: string): number {
  const m = /^0?\.(\d{1,4})$/.exec(text) ?? /^(0)$/.exec(text);
  if (!m) throw new RangeError(`not a rate: ${text}`);
  return Number((m[1] ?? '0').padEnd(4, '0'));
}

/** Integer division rounded half away from zero (b > 0). */
export function roundDiv(a: number, b: number): number {
  const q = Math.floor(Math.abs(a) / b);
  const r = Math.abs(a) - q * b;
  const rounded = 2 * r >= b ? q + 1 : q;
  return a < 0 ? -rounded : rounded;
}
