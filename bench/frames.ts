/**
 * The in-browser frame harness: the real app in headless Chromium (SwiftShader), 1280x720 at DPR 1,
 * 15 000 particles over the raster layer. Measures the worker's frame time and frame rate, the main
 * thread's busy share and its long tasks while animating and while panning, and the time to the
 * first particles on screen — also with the CPU throttled 4x through CDP.
 */

import type { Browser, CDPSession, Page } from 'playwright-core';
import type { RenderStats } from '../workers/api.ts';
import { median } from './stats.ts';

export interface FrameResult {
  throttle: number;
  /** CSS pixels and device pixel ratio of the page. */
  viewport: { width: number; height: number; pixelRatio: number };
  /** Median over FIRST_PARTICLES_LOADS page loads: one load's figure swings by hundreds of ms. */
  firstParticlesMs: number;
  /** Each load's figure, ms after navigation start, in the order measured. */
  firstParticlesLoadsMs: number[];
  fps: number;
  /** With pressure isolines on as well (issue 14 §1): frames per second and the worker's p95 frame, ms. */
  fpsIsolines: number;
  workerFrameP95Isolines: number;
  workerFrameP50: number;
  workerFrameP95: number;
  stepP50: number;
  particles: number;
  renderer: string;
  animating: MainThread;
  panning: MainThread;
  /** Opening the point forecast window (issue 4: no main-thread task over 50 ms). */
  forecast: MainThread;
}

export interface MainThread {
  busyShare: number;
  longTasks: number;
  longestTaskMs: number;
}

const VIEWPORT = { width: 1280, height: 720 };
export interface Screen { width: number; height: number; pixelRatio: number }
const DESKTOP: Screen = { ...VIEWPORT, pixelRatio: 1 };
/** A phone (issue 14 target: 390x844 at DPR 2, the map's pixel ratio capped at 2). */
export const PHONE: Screen = { width: 390, height: 844, pixelRatio: 2 };
/** Page loads behind the first-particles figure: the measured load and this many minus one more. */
export const FIRST_PARTICLES_LOADS = 5;

/**
 * Opens the map in a fresh browser context (a first visit: nothing cached in the browser) and
 * returns when the worker drew its first particles, in ms after navigation start. The page keeps
 * running; the caller closes the context.
 */
async function loadToFirstParticles(browser: Browser, baseUrl: string, throttle: number, screen: Screen = DESKTOP): Promise<{ page: Page; cdp: CDPSession; firstParticlesMs: number; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, deviceScaleFactor: screen.pixelRatio });
  const page = await context.newPage();
  await watchLongTasks(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  // Wind over the raster, at a zoom that fills 1280x720 with particles.
  await page.goto(`${baseUrl}/?45.000,-30.000,3`, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('isobar:first-particles').length > 0, undefined, { timeout: 30_000, polling: 50 });
  const firstParticlesMs = await page.evaluate(() => performance.getEntriesByName('isobar:first-particles')[0].startTime);
  return { page, cdp, firstParticlesMs, close: () => context.close() };
}

async function workerStats(page: Page): Promise<RenderStats> {
  return page.evaluate(() => (window as unknown as { isobar: { render(): { stats(): Promise<RenderStats> } } }).isobar.render().stats());
}

async function taskDuration(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m: { name: string }) => m.name === 'TaskDuration')?.value ?? 0;
}

async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const list = w.__longTasks.slice();
    w.__longTasks.length = 0;
    return list;
  });
}

/**
 * Records the page's long tasks from its first script on: their durations (ms) in window.__longTasks,
 * and each task's start and duration in window.__longTaskSpans (entries arrive after the task, so a
 * reader that clears the list at an instant can still be handed a task that ended before it).
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[]; __longTaskSpans: { start: number; duration: number }[] };
    w.__longTasks = [];
    w.__longTaskSpans = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__longTasks.push(e.duration);
        w.__longTaskSpans.push({ start: e.startTime, duration: e.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Drags the map around its centre for 3 s, a move every 16 ms. */
export async function panAround(page: Page): Promise<void> {
  const box = { x: VIEWPORT.width / 2, y: VIEWPORT.height / 2 };
  await page.mouse.move(box.x, box.y);
  await page.mouse.down();
  const started = performance.now();
  let i = 0;
  while (performance.now() - started < 3000) {
    i++;
    await page.mouse.move(box.x + 200 * Math.sin(i / 15), box.y + 80 * Math.cos(i / 20), { steps: 1 });
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
}

/** Opens the point forecast of the view's centre and waits until its table is drawn. */
export async function openForecast(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { isobar: { app: { router: { navigate(path: string): Promise<boolean> } } } }).isobar.app.router.navigate('/45.000/-30.000'));
  await page.waitForSelector('[data-testid="detail-table"]', { timeout: 30_000 });
  await page.waitForTimeout(500);
}

/** Main-thread share busy and its long tasks over `run`. */
async function mainThreadDuring(page: Page, cdp: CDPSession, run: () => Promise<void>): Promise<MainThread> {
  await longTasks(page);
  const busy0 = await taskDuration(cdp);
  const t0 = performance.now();
  await run();
  const wall = (performance.now() - t0) / 1000;
  const busy = (await taskDuration(cdp)) - busy0;
  const tasks = await longTasks(page);
  return { busyShare: busy / wall, longTasks: tasks.length, longestTaskMs: tasks.length ? Math.max(...tasks) : 0 };
}

/**
 * `quick`: first particles of one load only; `framesOnly`: besides, frames while animating only
 * (no isolines, pan, forecast or further loads).
 */
export async function measureFrames(browser: Browser, baseUrl: string, throttle: number, options: { quick?: boolean; framesOnly?: boolean; screen?: Screen } = {}): Promise<FrameResult> {
  const screen = options.screen ?? DESKTOP;
  const { page, cdp, firstParticlesMs, close } = await loadToFirstParticles(browser, baseUrl, throttle, screen);
  await page.waitForFunction(async () => {
    const s = await (window as unknown as { isobar: { render(): { stats(): Promise<RenderStats> } } }).isobar.render().stats();
    return s.tiles.loading === 0 && s.frames > 30;
  }, undefined, { timeout: 30_000, polling: 200 });

  const empty = { busyShare: NaN, longTasks: 0, longestTaskMs: 0 };
  if (options.quick) {
    await close();
    return { throttle, viewport: screen, firstParticlesMs, firstParticlesLoadsMs: [firstParticlesMs], fps: NaN, fpsIsolines: NaN, workerFrameP95Isolines: NaN, workerFrameP50: NaN, workerFrameP95: NaN, stepP50: NaN, particles: 0, renderer: '', animating: empty, panning: empty, forecast: empty };
  }
  const before = await workerStats(page);
  const t0 = performance.now();
  const animating = await mainThreadDuring(page, cdp, () => page.waitForTimeout(5000));
  const stats = await workerStats(page);
  // Frames over the whole window, not the last second only.
  const fps = ((stats.frames - before.frames) * 1000) / (performance.now() - t0);
  if (options.framesOnly) {
    await close();
    return {
      throttle, viewport: screen, firstParticlesMs, firstParticlesLoadsMs: [firstParticlesMs], fps, fpsIsolines: NaN, workerFrameP95Isolines: NaN,
      workerFrameP50: stats.frameMsP50, workerFrameP95: stats.frameMsP95, stepP50: stats.stepMsP50, particles: stats.particles, renderer: stats.renderer,
      animating, panning: empty, forecast: empty,
    };
  }

  // The same view with pressure isolines over it (contoured once the tiles are in, then drawn each static redraw).
  await page.evaluate(() => (window as unknown as { isobar: { app: { isolines: { choose(type: string): boolean } } } }).isobar.app.isolines.choose('pressure'));
  await page.waitForFunction(() => document.querySelector('[data-testid="isoline-label"]:not([hidden])') !== null, undefined, { timeout: 30_000, polling: 200 });
  const isoBefore = await workerStats(page);
  const i0 = performance.now();
  await page.waitForTimeout(5000);
  const isoStats = await workerStats(page);
  const fpsIsolines = ((isoStats.frames - isoBefore.frames) * 1000) / (performance.now() - i0);
  await page.evaluate(() => (window as unknown as { isobar: { app: { isolines: { setOn(on: boolean): void } } } }).isobar.app.isolines.setOn(false));

  const panning = await mainThreadDuring(page, cdp, () => panAround(page));
  const forecast = await mainThreadDuring(page, cdp, () => openForecast(page));
  await close();
  const loads = [firstParticlesMs];
  while (loads.length < FIRST_PARTICLES_LOADS) {
    const load = await loadToFirstParticles(browser, baseUrl, throttle);
    loads.push(load.firstParticlesMs);
    await load.close();
  }
  return {
    throttle,
    viewport: screen,
    firstParticlesMs: median(loads),
    firstParticlesLoadsMs: loads,
    fps,
    fpsIsolines,
    workerFrameP95Isolines: isoStats.frameMsP95,
    workerFrameP50: stats.frameMsP50,
    workerFrameP95: stats.frameMsP95,
    stepP50: stats.stepMsP50,
    particles: stats.particles,
    renderer: stats.renderer,
    animating,
    panning,
    forecast,
  };
}
