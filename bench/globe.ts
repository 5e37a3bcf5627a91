/**
 * The globe's frames against the flat map's, in the same page and the same run (issue target:
 * the globe within 20 % of the flat map): the real app in headless Chromium (SwiftShader) at
 * 1280x720 DPR 1, wind particles over the raster; frames counted over 4 s windows, flat map and
 * globe in turn (each once its tiles are in and its particles run), ROUNDS times: software GL
 * shares the machine's CPUs with whatever else runs, so one window swings by a third; the
 * figures are the medians of each view's windows.
 *
 *   npx vite build --outDir $PWD/dist && npx tsx bench/globe.ts     (or through npm run bench)
 */

import type { Browser, Page } from 'playwright-core';
import type { RenderStats } from '../workers/api.ts';
import { buildApp } from '../server/app.ts';
import { launchChromium } from './chromium.ts';
import { median } from './stats.ts';

export interface GlobeBenchResult {
  /** Frames per second drawn by the worker: medians of each view's windows, and the windows in order. */
  flatFps: number;
  flatFpsWindows: number[];
  globeFps: number;
  globeFpsWindows: number[];
  /** globeFps / flatFps. */
  ratio: number;
  flatParticles: number;
  globeParticles: number;
  globeFrameMsP50: number;
  flatFrameMsP50: number;
  renderer: string;
}

const VIEWPORT = { width: 1280, height: 720 };
const WINDOW_MS = 4000;
const ROUNDS = 3;

type Isobar = { isobar: { render(): { stats(): Promise<RenderStats> }; app: { settings: { set(key: string, value: string): boolean } } } };

const stats = (page: Page) => page.evaluate(() => (window as unknown as Isobar).isobar.render().stats());

async function settled(page: Page, frames: number): Promise<void> {
  await page.waitForFunction(async (min) => {
    // The page's first script defines window.isobar; the worker answers once the map has started.
    const render = (window as unknown as Partial<Isobar>).isobar?.render();
    if (!render) return false;
    const s = await render.stats();
    return s.tiles.loading === 0 && s.frames > min && s.firstParticlesAt !== null && s.particles > 0;
  }, frames, { timeout: 60_000, polling: 200 });
}

async function framesOver(page: Page): Promise<{ fps: number; s: RenderStats }> {
  const before = await stats(page);
  const t0 = Date.now();
  await page.waitForTimeout(WINDOW_MS);
  const s = await stats(page);
  return { fps: ((s.frames - before.frames) * 1000) / (Date.now() - t0), s };
}

const setLibrary = (page: Page, library: string) => page.evaluate((lib) => { (window as unknown as Isobar).isobar.app.settings.set('mapLibrary', lib); }, library);

export async function measureGlobe(browser: Browser, baseUrl: string): Promise<GlobeBenchResult> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    // The view of the frame harness (bench/frames.ts): wind over the raster at zoom 3.
    await page.goto(`${baseUrl}/?45.000,-30.000,3`, { waitUntil: 'commit' });
    await settled(page, 30);
    // The page goes on loading its lazy parts (labels, language bundles) after the first particles.
    await page.waitForTimeout(3000);
    const flat: { fps: number; s: RenderStats }[] = [];
    const globe: { fps: number; s: RenderStats }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [library, into] of [['leaflet', flat], ['globe', globe]] as const) {
        await setLibrary(page, library);
        await settled(page, (await stats(page)).frames + 30);
        into.push(await framesOver(page));
      }
    }
    await setLibrary(page, 'leaflet');
    const flatFps = median(flat.map((w) => w.fps));
    const globeFps = median(globe.map((w) => w.fps));
    return {
      flatFps,
      flatFpsWindows: flat.map((w) => w.fps),
      globeFps,
      globeFpsWindows: globe.map((w) => w.fps),
      ratio: globeFps / flatFps,
      flatParticles: flat[0].s.particles,
      globeParticles: globe[0].s.particles,
      flatFrameMsP50: median(flat.map((w) => w.s.frameMsP50)),
      globeFrameMsP50: median(globe.map((w) => w.s.frameMsP50)),
      renderer: globe[0].s.renderer,
    };
  } finally {
    await context.close();
  }
}

/** Serves the built app and measures (the caller has built it: ISOBAR_DIST_DIR or dist/). */
export async function globeBench(): Promise<GlobeBenchResult> {
  const app = await buildApp({ logger: false, prewarm: false, liveSources: null });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  try {
    return await measureGlobe(browser, url);
  } finally {
    await browser.close();
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await globeBench(), null, 2));
}
