// The HTML building blocks every part of the report page uses.

import { implColors } from './charts.ts';

export const PROTOCOL_NAMES: Record<string, string> = { rest: 'REST', graphql: 'GraphQL' };

/** An implementation's name with its colour in the charts. */
export function swatch(impl: string, impls: string[]): string {
  const { range } = implColors(impls);
  return `<span class="swatch" style="background:${range[impls.indexOf(impl)]}"></span>${esc(impl)}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export function table(head: string[], rows: string[][], leftColumns = 1, cls = ''): string {
  const cell = (tag: string, i: number, c: string) => `<${tag}${i < leftColumns ? ' class="l"' : ''}>${c}</${tag}>`;
  return `<div class="scroll"><table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h, i) => cell('th', i, h)).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => cell('td', i, c)).join('')}</tr>`).join('')}</tbody></table></div>`;
}
