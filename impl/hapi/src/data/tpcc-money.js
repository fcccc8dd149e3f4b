// Exact money for the tpcc API. mysql2 hands DECIMAL columns over as strings ('-10.00',
// '0.1234'); they are computed with as integers (cents, ten-thousandths), never as floats.

const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;
const RATE = /^0?\.(\d{1,4})$/;

/** '12.34' → 1234 cents; '-10.00' → -1000. */
export function toCents(decimal) {
  const match = AMOUNT.exec(String(decimal));
  if (match === null) throw new Error(`not an amount of money: ${decimal}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** A DECIMAL(4,4) rate: '0.1234' → 1234 ten-thousandths. */
export function toTenThousandths(decimal) {
  const match = RATE.exec(String(decimal));
  if (match === null) throw new Error(`not a rate: ${decimal}`);
  return Number(match[1].padEnd(4, '0'));
}

/** 1234 cents → '12.34', the text a DECIMAL column stores exactly. */
export function decimalText(cents) {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents as the JSON number the API answers: 1234 → 12.34. */
export const asMoney = (cents) => cents / 100;

/** numerator / denominator (integers, denominator > 0) rounded half away from zero. */
export function divideRounded(numerator, denominator) {
  const whole = Math.floor(Math.abs(numerator) / denominator);
  const rounded = 2 * (Math.abs(numerator) - whole * denominator) >= denominator ? whole + 1 : whole;
  return numerator < 0 ? -rounded : rounded;
}
