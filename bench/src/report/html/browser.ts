/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (the functions given to page.evaluate run in the page: DOM types)
// The report as a reader sees it: opened in headless Chromium from Debian (apt package
// `chromium`, installed by make setup) through playwright-core, checked — every chart drawn,
// no text outside its box — and its first screen photographed for the README (make screenshot).
import { access } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** CHROMIUM_PATH, else Debian's Chromium, else an installed Chrome (GitHub's runners). */
export async function chromiumPath(): Promise<string> {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/google-chrome'].filter((p): p is string => Boolean(p));
  for (const p of candidates) {
    try {
      await access(p);
      return p;
    } catch {
      // the next candidate
    }
  }
  throw new Error(`no Chromium at ${candidates.join(' or ')}: make setup installs Debian's chromium (or set CHROMIUM_PATH)`);
}

/** The report's width in a reader's window: the page's own max-width plus its margins. */
export const VIEWPORT = { width: 1400, height: 900 } as const;

export async function openReport(file: string): Promise<{ browser: Browser; page: Page }> {
  // No sandbox: the harness runs as an ordinary user in a container where Chromium's namespaces may be refused.
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { browser, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

export interface ChartCheck {
  /** The charts (inline SVG in figures) and how many were drawn: a box with area and marks in it. */
  charts: number;
  empty: string[];
}

export interface OverflowCheck {
  /** Elements checked: every element with text of its own. */
  checked: number;
  /** "td: 'text…' 412 px in a 300 px box", one per text wider than its box. */
  overflowing: string[];
  /** Chart labels (SVG text) that reach outside their chart. */
  clippedLabels: string[];
  /** The page wider than the window (something pushes the layout out). */
  pageOverflow: number;
}

/** Every chart of the page rendered: a non-empty box with drawn marks (paths, rects, lines, symbols). */
export async function checkCharts(page: Page): Promise<ChartCheck> {
  return page.evaluate(() => {
    const charts = [...document.querySelectorAll('figure svg, figure canvas')];
    const empty: string[] = [];
    charts.forEach((chart, i) => {
      const box = chart.getBoundingClientRect();
      const marks =
        chart instanceof SVGSVGElement
          ? [...chart.querySelectorAll('path, rect, line, circle')].filter((m) => {
              const b = (m as SVGGraphicsElement).getBBox();
              return b.width > 0 || b.height > 0;
            }).length
          : 1;
      const caption = chart.closest('figure')?.querySelector('figcaption')?.textContent?.slice(0, 60) ?? '';
      if (box.width < 10 || box.height < 10 || marks === 0)
        empty.push(`chart ${i + 1} (${caption}): ${Math.round(box.width)}×${Math.round(box.height)} px, ${marks} marks`);
    });
    return { charts: charts.length, empty };
  });
}

/**
 * No text outside its box: an element whose own text is wider than its box (and which is not
 * a scroll container, where that is the intent), a chart label beyond its chart's edges, or a
 * page wider than the window.
 */
export async function checkOverflow(page: Page): Promise<OverflowCheck> {
  return page.evaluate(() => {
    const overflowing: string[] = [];
    let checked = 0;
    const ownText = (el: Element) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('svg') || !ownText(el)) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'none') continue;
      checked++;
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
      if (el.scrollWidth > el.clientWidth + 1)
        overflowing.push(`${el.tagName.toLowerCase()}: '${(el.textContent ?? '').trim().slice(0, 50)}' ${el.scrollWidth} px in a ${el.clientWidth} px box`);
    }
    const clippedLabels: string[] = [];
    for (const svg of document.querySelectorAll('figure svg')) {
      const frame = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll('text')) {
        const b = text.getBoundingClientRect();
        if (!(text.textContent ?? '').trim() || b.width === 0) continue;
        if (b.left < frame.left - 1 || b.right > frame.right + 1 || b.top < frame.top - 1 || b.bottom > frame.bottom + 1)
          clippedLabels.push(
            `'${text.textContent}' at ${Math.round(b.left - frame.left)},${Math.round(b.top - frame.top)} in a ${Math.round(frame.width)}×${Math.round(frame.height)} chart`,
          );
      }
    }
    return { checked, overflowing, clippedLabels, pageOverflow: Math.max(0, document.documentElement.scrollWidth - window.innerWidth) };
  });
}

/**
 * The report's first screen as a reader opens it (VIEWPORT): the title and each API's answer,
 * the chart of its implementations against the database alone and each other, with verdicts.
 */
export async function screenshotTop(page: Page, path: string): Promise<void> {
  await page.screenshot({ path, clip: { x: 0, y: 0, ...VIEWPORT } });
}
