/**
 * Opening the point-tool windows (issue 16 target: opening each window with data from the local
 * server, no main-thread task over 50 ms at 1x CPU, first content <= 300 ms after the click).
 *
 * The real app server (buildApp, as the frame harness starts it) on a data directory holding the
 * fixtures the end-to-end specs publish: the GFS 2.5° samples with their pressure levels
 * (server/ingest/samples.ts, tests/sounding.spec.ts), the airports' METAR/TAF and runways
 * (serveAirportFixtures, tests/airport.spec.ts), the NWS KFLL observation (publishStationFixture,
 * tests/station.spec.ts); a Premium user (the admin command's grant) with a webcam of their own
 * (tests/tides.spec.ts, tests/pointTools.spec.ts). Headless Chromium at 1280x720 DPR 1, no CPU
 * throttling, logged in, the map open over Denver and idle; then for each window, opened as a
 * user opens it (the map's context menu, or the path a link or a map POI opens):
 *
 *   first content  from the click (the press's event time) or the navigation call to the first
 *                  requestAnimationFrame after the window's data element is in the DOM, timed in
 *                  the page with performance.now
 *   longest task   the main thread's longest task (PerformanceObserver 'longtask', frames.ts)
 *                  from the click to 1 s after the content showed
 *
 * The first open, which loads the window's code and its language bundle, is "cold"; then
 * WARM_OPENS more, the window closed between opens, give the warm median. The sample ingest of the
 * first run is kept in var/bench-windows (only the first run pays it); the observations and the
 * account are published again each run. Before the page opens, the server answers one point
 * forecast of each product at another place (warmPointForecasts): the windows meet a server past its
 * first minutes.
 *
 *   npx vite build --outDir dist-mine && ISOBAR_DIST_DIR=$PWD/ui/dist-mine npx tsx bench/windows.ts
 *
 * With ISOBAR_BENCH_PROFILE=1 (a diagnosis aid; its figures are not the bench's), the cold open and the
 * first warm one of each window run under the DevTools tracer and CPU profiler, and the breakdown of
 * their long tasks and the functions with the most self time are printed (a build with
 * `--minify false` keeps the names readable); ISOBAR_BENCH_PROFILE=requests only lists the requests of
 * those opens. ISOBAR_BENCH_WINDOWS=sounding,tides opens only the windows whose names begin so.
 */

import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CDPSession, Page } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { pointPath } from '../common/api/forecast.ts';
import { PRODUCTS_PATH } from '../common/api/products.ts';
import { buildApp } from '../server/app.ts';
import { subscriptionFor } from '../server/cli/admin.ts';
import { loadSamples } from '../server/ingest/samples.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { AwcMetarSource } from '../server/obs/metar/metarSource.ts';
import { OurAirportsRunwaysSource } from '../server/obs/metar/runwaysSource.ts';
import { serveAirportFixtures } from '../server/obs/metar/testing.ts';
import { TEST_KDF } from '../server/routes/testing.ts';
import { loginAs, mainThreadQuiet, NWS_FIXTURE_STATION, obsTestContext, publishStationFixture, TEST_PASSWORD } from '../tests/testing.ts';
import { launchChromium } from './chromium.ts';
import { watchLongTasks } from './frames.ts';
import { longTaskBreakdown, longTaskFunctions, type Profile, tasksAfterClick, type TraceEvent } from './profiling.ts';
import { median } from './stats.ts';

export const FIRST_CONTENT_BUDGET_MS = 300;
export const LONG_TASK_BUDGET_MS = 50;
/** Opens after the cold one; their median is the warm figure. */
const WARM_OPENS = 5;
/** The main thread is watched this long after the content showed. */
const AFTER_CONTENT_MS = 1000;
/** A window whose content has not shown by then is reported as not measured. */
const CONTENT_TIMEOUT_MS = 15_000;
/** The login and the map's first view, on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;
/** Quiet main thread (no long task) before each open: the map is idle; waited for IDLE_TIMEOUT_MS at most. */
const IDLE_MS = 300;
const IDLE_TIMEOUT_MS = 2000;

const DATA_DIR = fileURLToPath(new URL('../var/bench-windows/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../shared/data/samples/gfs-2p5-full/', import.meta.url));
/**
 * The airport fixtures' METAR time (2023-10-17 05:51Z reports), as tests/airport.spec.ts polls them
 * first. Their TAFs are of another day (2024-05-09): the source keeps a station's latest METAR and
 * TAF of one poll, so the window shows the METAR, runways and forecast, without a TAF.
 */
const METAR_NOW = Date.UTC(2023, 9, 17, 6);
/** Five minutes after the NWS fixture's observation (tests/station.spec.ts). */
const STATION_NOW = Date.UTC(2022, 2, 2, 23, 58);
/** The map's view: Denver, where the GFS samples' sounding of tests/sounding.spec.ts is; the webcam is there too. */
const VIEW = { lat: 40, lon: -105, zoom: 5 };
/** Friday Harbor's ferry landing, 0.9 km from NOAA's gauge 9449880 (tests/tides.spec.ts). */
const TIDES_AT = '/48.537/-123.014';
/** A public address out of reach here: its requests are made to fail at once (tests/pointTools.spec.ts). */
const WEBCAM_HOST = 'https://93.184.215.14';

type Open = { kind: 'menu'; item: string } | { kind: 'path'; path: string };

interface WindowCase {
  window: string;
  open: Open;
  /** Present only once the window shows its data. */
  content: string;
}

const CASES: WindowCase[] = [
  { window: 'sounding', open: { kind: 'menu', item: 'Sounding here' }, content: '[data-testid="skewt-temp"]' },
  { window: 'multimodel', open: { kind: 'menu', item: 'Compare models here' }, content: '[data-testid="multimodel-today"] td[data-value]' },
  { window: 'webcams', open: { kind: 'menu', item: 'Webcams nearby' }, content: '[data-testid="webcams-item"]' },
  { window: 'airport (/airport/KJFK, METAR)', open: { kind: 'path', path: '/airport/KJFK' }, content: '[data-testid="airport-metar-raw"]' },
  { window: `station (/station/${NWS_FIXTURE_STATION})`, open: { kind: 'path', path: `/station/${NWS_FIXTURE_STATION}` }, content: '[data-testid="station-row"]' },
  { window: 'tides (point forecast, Premium)', open: { kind: 'path', path: TIDES_AT }, content: '[data-testid="detail-tide-extreme"]' },
];

export interface WindowResult {
  window: string;
  how: string;
  coldMs: number;
  warmMs: number[];
  warmMedianMs: number;
  coldLongestTaskMs: number;
  /** Longest task over every warm open. */
  warmLongestTaskMs: number;
}

export interface WindowsBenchResult {
  windows: WindowResult[];
  /** The 1-minute load average when the windows began to be opened; seconds of set-up (data, login, map) and of the opens. */
  loadAverage: number;
  setupS: number;
  opensS: number;
  /** Windows that could not be measured, and why. */
  errors: { window: string; error: string }[];
}

/** The data the windows show, published into DATA_DIR. */
async function publishData(): Promise<void> {
  await mkdir(DATA_DIR, { recursive: true });
  const samples = await loadSamples(SAMPLES, DATA_DIR);
  if (samples.failures.length > 0) throw new Error(`GFS samples not loaded: ${samples.failures.join('; ')}`);
  const fixture = await FixtureServer.start();
  try {
    await serveAirportFixtures(fixture);
    await new OurAirportsRunwaysSource(fixture.url).poll(obsTestContext(DATA_DIR, METAR_NOW));
    await new AwcMetarSource(fixture.url).poll(obsTestContext(DATA_DIR, METAR_NOW));
  } finally {
    await fixture.close();
  }
  await publishStationFixture(DATA_DIR, STATION_NOW);
}

/** A Premium user (tides) with a webcam of their own at the view's centre; answers the email. */
async function premiumUserWithWebcam(app: FastifyInstance): Promise<string> {
  const email = `bench-windows-${Date.now()}@example.com`;
  const registered = await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email, password: TEST_PASSWORD, passwordConfirm: TEST_PASSWORD } });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const { token, userInfo } = registered.json() as { token: string; userInfo: { id: string | number } };
  await app.accounts.setSubscription(String(userInfo.id), subscriptionFor({ action: 'grant', email, days: 1 }, Date.now()));
  const cam = await app.inject({
    method: 'POST', url: '/users/v1/data/webcams', headers: { authorization: `Bearer ${token}` },
    payload: { title: 'Bench cam', lat: VIEW.lat, lon: VIEW.lon, imageUrl: `${WEBCAM_HOST}/cam.jpg` },
  });
  if (cam.statusCode >= 300) throw new Error(`webcam: ${cam.statusCode} ${cam.body}`);
  return email;
}

/**
 * One point forecast of each served product, at a place other than the windows' (their answers are
 * not cached by it): a server that has answered point forecasts before, as one does after its first
 * minutes. A fresh process's first answer of a product costs it 200-550 ms (the route's first call,
 * the run's point store and the model elevation opened), which is the server's start-up, not the window.
 */
async function warmPointForecasts(app: FastifyInstance): Promise<void> {
  const listed = await app.inject({ method: 'GET', url: PRODUCTS_PATH });
  if (listed.statusCode !== 200) throw new Error(`products: ${listed.statusCode} ${listed.body}`);
  for (const { ident } of (listed.json() as { products: { ident: string }[] }).products) {
    await app.inject({ method: 'GET', url: pointPath(ident, VIEW.lat + 1, VIEW.lon + 1) });
  }
}

/**
 * In the page: empties the long-task list, notes the next press's event time as the open's start
 * (window.__open.t0, unless the caller sets it first) and the time of the first frame after `content`
 * is in the DOM (t1).
 */
async function armOpen(page: Page, content: string): Promise<void> {
  await page.evaluate((selector) => {
    const w = window as unknown as { __open: { t0: number | null; t1: number | null }; __longTaskSpans: unknown[] };
    w.__longTaskSpans.length = 0;
    const open = { t0: null as number | null, t1: null as number | null, tShell: null as number | null };
    w.__open = open;
    addEventListener('pointerdown', (e) => {
      open.t0 ??= e.timeStamp;
    }, { capture: true, once: true });
    const seen = () => {
      if (!document.querySelector(selector)) return false;
      requestAnimationFrame(() => {
        open.t1 = performance.now();
      });
      return true;
    };
    const observer = new MutationObserver(() => {
      // When the window's frame is in the DOM, before its data (a diagnosis figure: ISOBAR_BENCH_PROFILE).
      if (open.tShell === null && document.querySelector('section.window')) open.tShell = performance.now();
      if (seen()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  }, content);
}

/** Opens a window once; its first-content time and the main thread's longest task, ms. */
async function openOnce(page: Page, c: WindowCase): Promise<{ ms: number; longestTaskMs: number }> {
  if (c.open.kind === 'menu') {
    // The map's centre: the view's place (the webcam is there).
    const map = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2, map.y + map.height / 2, { button: 'right' });
    const item = page.getByTestId('context-menu').getByRole('menuitem', { name: c.open.item });
    await item.waitFor();
    await armOpen(page, c.content);
    await item.click();
  } else {
    await armOpen(page, c.content);
    await page.evaluate((path) => {
      const w = window as unknown as { __open: { t0: number | null }; isobar: { app: { router: { navigate(p: string): Promise<boolean> } } } };
      w.__open.t0 = performance.now();
      void w.isobar.app.router.navigate(path);
    }, c.open.path);
  }
  await page.waitForFunction((after) => {
    const open = (window as unknown as { __open: { t1: number | null } }).__open;
    return open.t1 !== null && performance.now() >= open.t1 + after;
  }, AFTER_CONTENT_MS, { timeout: CONTENT_TIMEOUT_MS, polling: 100 });
  const { t0, t1, tasks } = await page.evaluate(() => {
    const w = window as unknown as { __open: { t0: number; t1: number }; __longTaskSpans: { start: number; duration: number }[] };
    // Tasks that ended before the click (opening the context menu, reported late) are not the window's.
    return { ...w.__open, tasks: w.__longTaskSpans.filter((task) => task.start + task.duration >= w.__open.t0).map((task) => task.duration) };
  });
  await closeWindows(page, c.content);
  return { ms: t1 - t0, longestTaskMs: tasks.length ? Math.max(...tasks) : 0 };
}

/** Closes every open window as its close button does, and waits until they are gone. */
async function closeWindows(page: Page, content: string): Promise<void> {
  await page.evaluate(() => {
    const { panels, router } = (window as unknown as { isobar: { app: { panels: { windows: { value: { ident: string }[] } }; router: { closePanel(i: string): void } } } }).isobar.app;
    for (const w of panels.windows.value) router.closePanel(w.ident);
  });
  await page.waitForFunction((selector) => {
    const { panels } = (window as unknown as { isobar: { app: { panels: { windows: { value: unknown[] } } } } }).isobar.app;
    return panels.windows.value.length === 0 && !document.querySelector(selector);
  }, content, { timeout: 10_000, polling: 50 });
  await mainThreadQuiet(page, IDLE_MS, IDLE_TIMEOUT_MS);
}

/** '1': trace and profile the first two opens of each window; 'requests': only list their requests. */
const PROFILE = process.env.ISOBAR_BENCH_PROFILE;

/** openOnce under the tracer and the CPU profiler, printing where the main thread's time went. */
async function profiled(page: Page, cdp: CDPSession, label: string, open: () => Promise<{ ms: number; longestTaskMs: number }>) {
  const browser = page.context().browser()!;
  const tracing = PROFILE !== 'requests';
  if (tracing) {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', '__metadata'] });
    await cdp.send('Profiler.start');
  }
  const result = await open();
  console.log(`\n== ${label}: first content ${result.ms.toFixed(0)} ms, longest task ${result.longestTaskMs.toFixed(0)} ms`);
  // The window's frame in the DOM, and the requests of the open, from the click: when each began and ended.
  const requests = await page.evaluate(() => {
    const { t0, tShell } = (window as unknown as { __open: { t0: number; tShell: number | null } }).__open;
    return [`    window frame in the DOM: +${tShell === null ? '?' : (tShell - t0).toFixed(0)} ms`, ...performance.getEntriesByType('mark').filter((m) => m.startTime >= t0 - 1).map((m) => `    mark ${m.name} +${(m.startTime - t0).toFixed(0)}`), ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.startTime >= t0 - 1)
      .map((e) => `    +${(e.startTime - t0).toFixed(0)}..+${(e.responseEnd - t0).toFixed(0)} ms ${e.name.replace(location.origin, '').slice(0, 90)}`)];
  });
  for (const line of requests) console.log(line);
  if (!tracing) return result;
  const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: Profile & { startTime: number } };
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  console.log('  tasks from the click on:');
  for (const line of tasksAfterClick(trace.traceEvents)) console.log(line);
  for (const line of longTaskBreakdown(trace.traceEvents)) console.log(line);
  console.log('  inside those tasks, inclusive:');
  for (const line of longTaskFunctions(trace.traceEvents, profile, 40)) console.log(line);
  return result;
}

async function measureWindow(page: Page, c: WindowCase, cdp: CDPSession | null): Promise<WindowResult> {
  const once = (label: string) => (cdp ? profiled(page, cdp, `${c.window} ${label}`, () => openOnce(page, c)) : openOnce(page, c));
  const cold = await once('cold');
  const warm = [await once('warm')];
  for (let i = 1; i < WARM_OPENS; i++) warm.push(await openOnce(page, c));
  return {
    window: c.window,
    how: c.open.kind === 'menu' ? `context menu "${c.open.item}"` : `navigate ${c.open.path}`,
    coldMs: cold.ms,
    warmMs: warm.map((w) => w.ms),
    warmMedianMs: median(warm.map((w) => w.ms)),
    coldLongestTaskMs: cold.longestTaskMs,
    warmLongestTaskMs: Math.max(...warm.map((w) => w.longestTaskMs)),
  };
}

export async function benchWindows(): Promise<WindowsBenchResult> {
  const started = performance.now();
  await publishData();
  const app = await buildApp({
    logger: false, prewarm: false, liveSources: null, dataDir: DATA_DIR, obs: { sources: [] },
    // The tests' cheap password KDF: logging in is not what is measured.
    accounts: { database: { kind: 'sqlite', path: `${DATA_DIR}isobar.sqlite` }, kdf: TEST_KDF },
  });
  try {
    const email = await premiumUserWithWebcam(app);
    await warmPointForecasts(app);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
      const page = await context.newPage();
      await page.route(`${WEBCAM_HOST}/**`, (route) => route.abort());
      // tsx compiles with esbuild's keepNames: a named function inside code sent to the page (tests/testing.ts
      // mainThreadQuiet) calls its __name helper, which the page does not have (a string: keepNames would wrap a function too).
      await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      await watchLongTasks(page);
      const cdp = PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      }
      await loginAs(page, email, SETUP_TIMEOUT_MS);
      await page.goto(`/?${VIEW.lat.toFixed(3)},${VIEW.lon.toFixed(3)},${VIEW.zoom}`);
      await page.waitForFunction(async () => {
        const render = (window as unknown as { isobar?: { render(): { stats(): Promise<{ firstParticlesAt: number | null; tiles: { loading: number } }> } | null } }).isobar?.render();
        const s = render ? await render.stats() : null;
        return s !== null && s.firstParticlesAt !== null && s.tiles.loading === 0;
      }, undefined, { timeout: SETUP_TIMEOUT_MS, polling: 200 });
      await mainThreadQuiet(page, IDLE_MS, IDLE_TIMEOUT_MS);
      const loadAverage = loadavg()[0];
      const opening = performance.now();
      const windows: WindowResult[] = [];
      const errors: WindowsBenchResult['errors'] = [];
      // ISOBAR_BENCH_WINDOWS=sounding,tides: only the windows whose names begin so (diagnosis).
      const only = process.env.ISOBAR_BENCH_WINDOWS?.split(',');
      for (const c of CASES.filter((w) => !only || only.some((name) => w.window.startsWith(name)))) {
        try {
          windows.push(await measureWindow(page, c, cdp));
        } catch (error) {
          errors.push({ window: c.window, error: (error as Error).message.split('\n')[0] });
          await closeWindows(page, c.content).catch(() => undefined);
        }
      }
      return { windows, errors, loadAverage, setupS: (opening - started) / 1000, opensS: (performance.now() - opening) / 1000 };
    } finally {
      await browser.close();
    }
  } finally {
    await app.close();
  }
}

const fmt = (ms: number) => ms.toFixed(0);

export interface WindowsCheck { what: string; budget: string; measured: string; ok: boolean; verdict?: string }

/** Two rows a window: first content and the longest task, each checked on the cold open and on the warm ones. */
export function windowsChecks(r: WindowsBenchResult): WindowsCheck[] {
  const out: WindowsCheck[] = r.windows.flatMap((w) => [
    {
      what: `opening the ${w.window} window, 1280x720, 1x CPU: first content after the click, cold / warm median of ${w.warmMs.length}`,
      budget: `<= ${FIRST_CONTENT_BUDGET_MS} ms, both`,
      measured: `${fmt(w.coldMs)} / ${fmt(w.warmMedianMs)} ms`,
      ok: w.coldMs <= FIRST_CONTENT_BUDGET_MS && w.warmMedianMs <= FIRST_CONTENT_BUDGET_MS,
    },
    {
      what: `opening the ${w.window} window: longest main-thread task to 1 s after the content, cold / warm`,
      budget: `<= ${LONG_TASK_BUDGET_MS} ms, both`,
      measured: `${fmt(w.coldLongestTaskMs)} / ${fmt(w.warmLongestTaskMs)} ms`,
      ok: w.coldLongestTaskMs <= LONG_TASK_BUDGET_MS && w.warmLongestTaskMs <= LONG_TASK_BUDGET_MS,
    },
  ]);
  for (const e of r.errors) out.push({ what: `opening the ${e.window} window`, budget: `<= ${FIRST_CONTENT_BUDGET_MS} ms; <= ${LONG_TASK_BUDGET_MS} ms`, measured: e.error, ok: false, verdict: 'not measured' });
  return out;
}

export function windowsSection(r: WindowsBenchResult): string[] {
  return [
    `## Opening the point-tool windows (bench/windows.ts: headless Chromium, 1280x720 DPR 1, 1x CPU, the map open and idle)`,
    '',
    `First content: from the click (or the navigation call) to the first frame after the window's data is in the DOM. Longest`,
    `task: the main thread's, from the click to ${AFTER_CONTENT_MS} ms after the content. Cold: the first open (the window's code and`,
    `language bundle load); warm: ${WARM_OPENS} opens after it, the window closed between them. Budgets (issue 16): first content`,
    `<= ${FIRST_CONTENT_BUDGET_MS} ms, no task over ${LONG_TASK_BUDGET_MS} ms, each checked on cold and warm. Load average (1 min) when`,
    `the opens began: ${r.loadAverage.toFixed(2)}; set-up ${r.setupS.toFixed(0)} s, opens ${r.opensS.toFixed(0)} s.`,
    '',
    '| window | opened by | cold ms | warm median ms (each) | longest task ms, cold / warm | first content <= 300 ms (cold / warm) | no task over 50 ms (cold / warm) |',
    '| --- | --- | ---: | --- | --- | --- | --- |',
    ...r.windows.map((w) => {
      const met = (ms: number, budget: number) => (ms <= budget ? 'met' : '**missed**');
      return `| ${w.window} | ${w.how} | ${fmt(w.coldMs)} | ${fmt(w.warmMedianMs)} (${w.warmMs.map(fmt).join(', ')}) | ${fmt(w.coldLongestTaskMs)} / ${fmt(w.warmLongestTaskMs)} | `
        + `${met(w.coldMs, FIRST_CONTENT_BUDGET_MS)} / ${met(w.warmMedianMs, FIRST_CONTENT_BUDGET_MS)} | ${met(w.coldLongestTaskMs, LONG_TASK_BUDGET_MS)} / ${met(w.warmLongestTaskMs, LONG_TASK_BUDGET_MS)} |`;
    }),
    ...(r.errors.length ? ['', ...r.errors.map((e) => `Not measured: ${e.window}: ${e.error}`)] : []),
    '',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchWindows();
  console.log(windowsSection(r).join('\n'));
  for (const c of windowsChecks(r)) console.log(`${c.verdict ?? (c.ok ? 'met' : 'MISSED')}: ${c.what}: ${c.measured} (budget ${c.budget})`);
}
