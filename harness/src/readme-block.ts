// A generated part of a Markdown file between two marker comments, replaced whole: the
// README's compliance matrix is copied from the verdicts on disk, never edited by hand, so
// branches that add implementations merge by regenerating it rather than by hand-merging rows.
// The suite (the README's matrix) and the benchmark (docs/papers.md) both write one, hence here.

export const blockMarkers = (name: string) => ({ start: `<!-- generated:${name} -->`, end: `<!-- /generated:${name} -->` });

/** The text with the block `name` replaced by `content`; an error when its markers are missing or out of order. */
export function replaceBlock(text: string, name: string, content: string): string {
  const { start, end } = blockMarkers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from || text.indexOf(start, from + 1) >= 0) throw new Error(`no single '${start}' … '${end}' block`);
  return `${text.slice(0, from + start.length)}\n${content.trim()}\n${text.slice(to)}`;
}
