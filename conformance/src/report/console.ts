// Human-readable progress: one line per case, the failures indented under it.
import type { CaseResult } from '../outcome.ts';

const tty = process.stdout.isTTY;
const paint = (code: string, text: string): string => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
export const bold = (t: string): string => paint('1', t);
export const red = (t: string): string => paint('31', t);
export const green = (t: string): string => paint('32', t);
export const yellow = (t: string): string => paint('33', t);

export function printCase(result: CaseResult): void {
  const mark = result.passed ? green('PASS') : red('FAIL');
  console.log(`  ${mark} ${result.id} ${paint('2', `(${Math.round(result.ms)} ms)`)}`);
  for (const failure of result.failures) console.log(failure.replace(/^/gm, '         '));
}

export function printBanner(text: string): void {
  console.log(`\n${bold(`== ${text}`)}`);
}

/** Skipped implementations are printed so nobody mistakes "not run" for "passed". */
export function printSkip(impl: string, api: string, reason: string): void {
  console.log(yellow(`\n!! SKIPPED ${impl} × ${api}: ${reason}`));
}
