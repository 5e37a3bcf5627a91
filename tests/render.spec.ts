/**
 * Render tests (issue 14 §4): each directory tests/render/<layer>/<case>/ holds a case.json (what
 * to show, the viewport, the particles, the tolerance) and the expected.png the map must match in
 * Debian Chromium (software GL). Deterministic: a fixed product time and view, the particles spawned
 * from the case's seed and exactly its number of steps drawn, then the worker holds the frame
 * (RenderApi.setFixedSteps). A failing case writes actual.png and diff.png into its test's output
 * directory (test-results/render-render-<layer>-<case>/); ISOBAR_RENDER_UPDATE=1 writes expected.png from what
 * the map shows now, for a deliberate change (tests/README.md).
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { parseDate } from '../common/url.ts';
import type { FixedStepsParams, FixedStepsState } from '../workers/fixedSteps.ts';
import type { RenderStats } from '../workers/api.ts';
import { startFixedClockServer } from './fixedClock.ts';
import { mainThreadQuiet, motionSettled, stats } from './testing.ts';

const CASES_DIR = fileURLToPath(new URL('./render/', import.meta.url));
const UPDATE = process.env.ISOBAR_RENDER_UPDATE === '1';

interface RenderCase {
  description: string;
  /**
   * The URL items (common/url.ts): `time` as YYYY-MM-DD-HH UTC; `isolines` the isolines type
   * (`i:` item), whose labels and H/L markers are then in the picture.
   */
  url: { overlay?: string; product: string; level?: string; time: string; lat: number; lon: number; zoom: number; isolines?: string };
  /** Accumulation overlays: the range in hours (SPEC §3 acRange). */
  acRange?: number;
  viewport: { width: number; height: number };
  pixelRatio: number;
  /** Particles: spawned from `seed`, `steps` steps drawn; 0 steps shows none. */
  particles: FixedStepsParams;
  /** City labels (DOM) in the picture: the case waits until this many at least show values. */
  labels?: number;
  /** Settings (common/settings.ts) set once the page has started: e.g. mapLibrary 'globe', basemapStyle, acRange. */
  settings?: Record<string, unknown>;
  /**
   * The demo product at a fixed time: the server's clock (ISO 8601 UTC) for a server of the demo
   * product of its own (tests/fixedClockServer.ts), whose run then starts at the same time on every run.
   */
  clock?: string;
  /**
   * The outdoor tile base map from the test archive (tests/pmtilesArchive.ts sampleBasemapLayers,
   * zooms 0-6), served where the e2e server's ISOBAR_BASEMAP_OUTDOOR points; its place names are in the picture.
   */
  basemapArchive?: boolean;
  /**
   * A pixel differs when one of its channels differs by more than `channel` (0..255); the case
   * passes while at most `share` (0..1) of the pixels differ.
   */
  tolerance: { channel: number; share: number };
}

interface CaseDir { name: string; dir: string; spec: RenderCase }

function findCases(): CaseDir[] {
  const found: CaseDir[] = [];
  if (!existsSync(CASES_DIR)) return found;
  for (const layer of readdirSync(CASES_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const entry of readdirSync(join(CASES_DIR, layer.name), { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const dir = join(CASES_DIR, layer.name, entry.name);
      if (!existsSync(join(dir, 'case.json'))) continue;
      found.push({ name: `${layer.name}/${entry.name}`, dir, spec: readCase(join(dir, 'case.json')) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Reads and checks a case.json: a mistyped case fails with what is wrong, not with a blank map. */
function readCase(path: string): RenderCase {
  const spec = JSON.parse(readFileSync(path, 'utf8')) as RenderCase;
  const where = relative(process.cwd(), path);
  const fail = (what: string) => {
    throw new Error(`${where}: ${what}`);
  };
  if (typeof spec.description !== 'string' || !spec.description) fail('description is missing');
  const { url, viewport, particles, tolerance } = spec;
  if (!url || typeof url.product !== 'string' || !/^\d{4}-\d{2}-\d{2}-\d{2}$/.test(url.time)) fail('url needs product and time (YYYY-MM-DD-HH)');
  if (![url.lat, url.lon, url.zoom].every(Number.isFinite)) fail('url needs lat, lon and zoom');
  if (!viewport || !Number.isInteger(viewport.width) || !Number.isInteger(viewport.height)) fail('viewport needs whole width and height');
  if (![1, 2].includes(spec.pixelRatio)) fail('pixelRatio must be 1 or 2');
  if (!particles || !Number.isInteger(particles.seed) || !Number.isInteger(particles.steps)) fail('particles needs whole seed and steps');
  if (!tolerance || !(tolerance.channel >= 0 && tolerance.channel <= 255) || !(tolerance.share >= 0 && tolerance.share <= 1)) fail('tolerance needs channel 0..255 and share 0..1');
  if (spec.clock !== undefined && !Number.isFinite(Date.parse(spec.clock))) fail('clock must be an ISO 8601 time');
  return spec;
}

/** The app's URL of a case: ?[level,][overlay,]product,time,lat,lon,zoom (common/url.ts). */
function caseUrl({ url }: RenderCase): string {
  const items = [url.level, url.overlay, url.product, url.time, url.lat.toFixed(3), url.lon.toFixed(3), String(url.zoom), url.isolines && `i:${url.isolines}`];
  return `/?${items.filter((i) => i !== undefined).join(',')}`;
}

type IsobarWindow = {
  isobar: {
    app: {
      layer: { product: { value: string }; overlay: { value: string } };
      timeline: { timestamp: { value: number } };
      settings: { set(key: string, value: unknown): boolean };
    };
    render(): { setFixedSteps(params: FixedStepsParams | null): Promise<void>; stats(): Promise<RenderStats> } | null;
  };
};

/** Hides the page's own chrome (top bar, timeline, menus, badges): the map and its city labels stay. */
const HIDE_CHROME = `
  body > :not(.map), .map > :not(canvas):not(.city-labels):not(.isoline-labels):not(.basemap-labels) { visibility: hidden !important; }
`;
/** Cases without labels leave the city labels out too, those without isolines their labels. */
const HIDE_CITY_LABELS = '.city-labels { visibility: hidden !important; }';
const HIDE_ISOLINE_LABELS = '.isoline-labels { visibility: hidden !important; }';
const HIDE_BASEMAP_LABELS = '.basemap-labels { visibility: hidden !important; }';

async function fixedSteps(page: Page): Promise<FixedStepsState | null> {
  return (await stats(page)).fixedSteps;
}

/** Opens a case and waits until the worker holds its last fixed step over loaded tiles. */
async function showCase(page: Page, c: RenderCase): Promise<void> {
  await page.goto(caseUrl(c), { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => !!(window as unknown as IsobarWindow).isobar?.render());
  await page.evaluate((p) => (window as unknown as IsobarWindow).isobar.render()!.setFixedSteps(p), c.particles);
  for (const [key, value] of Object.entries(c.settings ?? {})) {
    const set = await page.evaluate(([k, v]) => (window as unknown as IsobarWindow).isobar.app.settings.set(k, v), [key, value] as const);
    if (!set) throw new Error(`${c.description}: the setting ${key} refused ${JSON.stringify(value)}`);
  }
  const time = parseDate(c.url.time);
  // The page shows the case's product and time (the URL's), and the worker drew them.
  await page.waitForFunction(([product, ms]) => {
    const { app } = (window as unknown as IsobarWindow).isobar;
    return app.layer.product.value === product && app.timeline.timestamp.value === ms;
  }, [c.url.product, time] as const);
  await page.addStyleTag({ content: HIDE_CHROME + (c.labels ? '' : HIDE_CITY_LABELS) + (c.url.isolines ? '' : HIDE_ISOLINE_LABELS) + (c.basemapArchive ? '' : HIDE_BASEMAP_LABELS) });
  // The city labels keep clear of the controls (ui/labels/labelObstacles.ts), measured again when
  // one changes or the window resizes, not when a style sheet hides them: this tells them. Without
  // it, labels placed before the sheet came kept out of the hidden controls' room (4 labels, not 5).
  await page.evaluate(() => window.dispatchEvent(new Event('resize')));
  await expect.poll(async () => {
    const s = await stats(page);
    return s.tiles.loaded > 0 && s.tiles.failed === 0 && !!s.fixedSteps?.held;
  }, { timeout: 30_000 }).toBe(true);
  // Isolines: their labels or H/L markers are placed (where the page's controls leave room).
  if (c.url.isolines) await expect(page.locator('.isoline-labels > :not([hidden])').first()).toBeAttached();
  if (c.labels) {
    await expect.poll(() => page.locator('.city-label-value').evaluateAll((els) => els.filter((e) => /\d/.test(e.textContent ?? '')).length)).toBeGreaterThanOrEqual(c.labels);
  }
  // The tile base map: its place names are placed once its tiles are drawn.
  if (c.basemapArchive) await expect(page.locator('.basemap-labels > :not([hidden])').first()).toBeAttached();
  if (c.labels || c.url.isolines || c.basemapArchive) {
    // The lazily loaded UI places the labels and the fonts arrive: then the labels stand still.
    await mainThreadQuiet(page);
    await motionSettled(page);
  }
}

/** The map's pixels once the worker holds the frame, shot twice around an unchanged frame count. */
async function shoot(page: Page): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    await expect.poll(async () => !!(await fixedSteps(page))?.held, { timeout: 30_000 }).toBe(true);
    const before = (await stats(page)).frames;
    const png = await page.getByTestId('map').screenshot({ animations: 'disabled', caret: 'hide' });
    const after = await stats(page);
    if (after.frames === before && after.fixedSteps?.held) return png;
    if (attempt >= 5) throw new Error('The map kept changing while it was shot');
  }
}

interface Comparison { differing: number; share: number; maxChannel: number; diff: PNG }

/** Pixels differing by more than `channel` in a channel, and the diff image (pixelmatch). */
function compare(actual: PNG, expected: PNG, channel: number): Comparison {
  const { width, height } = actual;
  const diff = new PNG({ width, height });
  // pixelmatch draws every pixel that differs at all in red over a faded copy of the expected image.
  pixelmatch(expected.data, actual.data, diff.data, width, height, { threshold: 0, includeAA: true, alpha: 0.2 });
  let differing = 0;
  let maxChannel = 0;
  for (let i = 0; i < actual.data.length; i += 4) {
    const d = Math.max(Math.abs(actual.data[i] - expected.data[i]), Math.abs(actual.data[i + 1] - expected.data[i + 1]), Math.abs(actual.data[i + 2] - expected.data[i + 2]));
    maxChannel = Math.max(maxChannel, d);
    if (d > channel) differing++;
  }
  return { differing, share: differing / (width * height), maxChannel, diff };
}

const CASES = findCases();

/**
 * A context of its own for each case (the browser is shared): settings the URL sets are stored in
 * the context (IndexedDB, e.g. isolines on) and would show in the next case.
 */
function contextFor(browser: Browser, baseURL: string, c: RenderCase): Promise<BrowserContext> {
  return browser.newContext({
    baseURL, viewport: c.viewport, deviceScaleFactor: c.pixelRatio, locale: 'en-GB', timezoneId: 'UTC',
    // No service worker: each case starts from the network.
    serviceWorkers: 'block',
  });
}

test.describe('render', () => {

  test('every case directory has a case.json and an expected.png', () => {
    expect(CASES.length).toBeGreaterThan(0);
    if (!UPDATE) for (const c of CASES) expect(existsSync(join(c.dir, 'expected.png')), `${c.name}/expected.png`).toBe(true);
  });

  for (const c of CASES) {
    test(c.name, async ({ browser, baseURL }, info) => {
      const server = c.spec.clock ? await startFixedClockServer(c.spec.clock) : null;
      const context = await contextFor(browser, server?.origin ?? baseURL!, c.spec);
      const page = await context.newPage();
      try {
        await showCase(page, c.spec);
        const actualBytes = await shoot(page);
        const actual = PNG.sync.read(actualBytes);
        const expectedPath = join(c.dir, 'expected.png');
        if (UPDATE) {
          writeFileSync(expectedPath, actualBytes);
          console.log(`${c.name}: wrote ${relative(process.cwd(), expectedPath)} (${actual.width}x${actual.height})`);
          return;
        }
        const expected = PNG.sync.read(readFileSync(expectedPath));
        const save = (name: string, png: PNG | Buffer) => {
          const path = info.outputPath(name);
          writeFileSync(path, Buffer.isBuffer(png) ? png : PNG.sync.write(png));
          return relative(process.cwd(), path);
        };
        if (actual.width !== expected.width || actual.height !== expected.height) {
          const path = save('actual.png', actualBytes);
          throw new Error(`${c.name}: the map is ${actual.width}x${actual.height}, expected.png ${expected.width}x${expected.height}; actual in ${path}`);
        }
        const result = compare(actual, expected, c.spec.tolerance.channel);
        const line = `${c.name}: ${result.differing} pixels (${(result.share * 100).toFixed(3)} %) differ by more than ${c.spec.tolerance.channel}, largest channel difference ${result.maxChannel}`;
        console.log(line);
        if (result.share > c.spec.tolerance.share) {
          const a = save('actual.png', actualBytes);
          const d = save('diff.png', result.diff);
          throw new Error(`${line}; allowed ${(c.spec.tolerance.share * 100).toFixed(3)} %. Actual: ${a}, diff: ${d}`);
        }
      } finally {
        await context.close();
        server?.stop();
      }
    });
  }
});
