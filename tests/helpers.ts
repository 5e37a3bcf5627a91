/** Shared helpers of the end-to-end tests: app readiness, screenshots as pixels, worker stats. */

import { expect, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import type { RenderStats } from '../workers/api.ts';

export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

export async function screenshotPixels(page: Page, clip?: { x: number; y: number; width: number; height: number }): Promise<Pixels> {
  const png = PNG.sync.read(await page.screenshot({ clip, animations: 'allow' }));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

/** Share of pixels whose RGB differs by more than `threshold` in any channel. */
export function diffRatio(a: Pixels, b: Pixels, threshold = 24): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) > threshold || Math.abs(a.data[i + 1] - b.data[i + 1]) > threshold || Math.abs(a.data[i + 2] - b.data[i + 2]) > threshold) changed++;
  }
  return changed / (a.data.length / 4);
}

export function meanColor(p: Pixels): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  const n = p.data.length / 4;
  for (let i = 0; i < p.data.length; i += 4) {
    r += p.data[i];
    g += p.data[i + 1];
    b += p.data[i + 2];
  }
  return [r / n, g / n, b / n];
}

/** Share of pixels that differ from a colour by more than `threshold`. */
export function shareNot(p: Pixels, [r, g, b]: [number, number, number], threshold = 12): number {
  let other = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    if (Math.abs(p.data[i] - r) > threshold || Math.abs(p.data[i + 1] - g) > threshold || Math.abs(p.data[i + 2] - b) > threshold) other++;
  }
  return other / (p.data.length / 4);
}

export async function stats(page: Page): Promise<RenderStats> {
  return page.evaluate(async () => {
    const render = (window as unknown as { isobar: { render(): { stats(): Promise<RenderStats> } | null } }).isobar.render();
    if (!render) throw new Error('render worker not ready');
    return render.stats();
  });
}

/** Opens the app and waits until particles are on screen and the tiles in view have loaded. */
export async function openMap(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect.poll(async () => {
    try {
      const s = await stats(page);
      return s.firstParticlesAt !== null && s.tiles.loading === 0 && s.frames > 5;
    } catch {
      return false;
    }
  }, { timeout: 30_000 }).toBe(true);
}

/**
 * Waits until the page's main thread has had `quietMs` without a long task (the lazily loaded UI,
 * labels and language bundles settle after the first particles): input timing tests start then.
 */
export async function mainThreadQuiet(page: Page, quietMs = 500, timeoutMs = 15_000): Promise<void> {
  await page.evaluate(([quiet, timeout]) => new Promise<void>((resolve) => {
    const started = performance.now();
    let last = performance.now();
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) last = Math.max(last, e.startTime + e.duration);
    });
    observer.observe({ type: 'longtask' });
    const check = () => {
      const now = performance.now();
      if (now - last >= quiet || now - started >= timeout) {
        observer.disconnect();
        resolve();
      } else {
        setTimeout(check, 50);
      }
    };
    setTimeout(check, 50);
  }), [quietMs, timeoutMs] as const);
}

/** The map area without the UI panels on it: a band across the middle of the screen. */
export function mapClip(page: Page): { x: number; y: number; width: number; height: number } {
  const { width, height } = page.viewportSize()!;
  return { x: Math.round(width * 0.1), y: Math.round(height * 0.2), width: Math.round(width * 0.6), height: Math.round(height * 0.45) };
}

/** Chooses an overlay from the menu: a favourite directly, any other through "More layers". */
export async function pickOverlay(page: Page, ident: string): Promise<void> {
  const direct = page.locator(`[data-testid="overlay-menu"] > [data-overlay="${ident}"]`);
  if (await direct.count()) {
    await direct.click();
    return;
  }
  const all = page.getByTestId('overlay-all');
  if (!(await all.count())) await page.getByTestId('overlay-more').click();
  await all.locator(`[data-overlay="${ident}"]`).click();
}
