import type { Page } from 'playwright-core';

export interface Unreadable {
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/**
 * Every visible text on the page whose contrast with the background it is drawn on is below
 * `minRatio` (WCAG's contrast ratio; 3 is its floor for large text). Text colours come from `color`,
 * SVG text (charts, graphs) from `fill`; the background is the nearest painted one up the tree,
 * semi-transparent layers blended over what lies beneath. Disabled controls are left out: they
 * are meant to look faint.
 */
export function unreadableTexts(page: Page, minRatio = 3): Promise<Unreadable[]> {
  return page.evaluate((min) => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba | null => {
      // color-mix() computes to color(srgb r g b / a) with channels from 0 to 1.
      const srgb = /color\(srgb ([^)]+)\)/.exec(c);
      if (srgb) {
        const [r, g, b, a = 1] = srgb[1].split(/[ /]+/).filter(Boolean).map(Number);
        return [r * 255, g * 255, b * 255, a];
      }
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1]
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1) as Rgba;
    };
    const lum = ([r, g, b]: Rgba) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const background = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg[3] > 0) {
          layers.push(bg);
          if (bg[3] >= 1) break;
        }
      }
      let result: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const out: { text: string; color: string; background: string; ratio: number }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      if (el.closest('[disabled], [aria-disabled="true"], [data-disabled], script, style'))
        continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
      if (!el.checkVisibility({ opacityProperty: true })) continue;
      const isSvg = el instanceof SVGElement;
      const fg = parse(isSvg ? style.fill : style.color);
      if (!fg) continue;
      const bg = background(el);
      const [a, b] = [lum(over(fg, bg)), lum(bg)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < min)
        out.push({
          text: n.textContent.trim().slice(0, 60),
          color: isSvg ? style.fill : style.color,
          background: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`,
          ratio: Math.round(ratio * 100) / 100,
        });
    }
    return out;
  }, minRatio);
}
