// The HTML building blocks every part of the report page uses.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export function table(head: string[], rows: string[][], leftColumns = 1, cls = ''): string {
  const cell = (tag: string, i: number, c: string) => `<${tag}${i < leftColumns ? ' class="l"' : ''}>${c}</${tag}>`;
  return `<div class="scroll"><table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h, i) => cell('th', i, h)).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => cell('td', i, c)).join('')}</tr>`).join('')}</tbody></table></div>`;
}
