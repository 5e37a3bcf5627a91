/** Shared helpers of the end-to-end tests: app readiness, screenshots as pixels, worker stats. */

import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import Stripe from 'stripe';
import { E2E_STRIPE_WEBHOOK_SECRET } from '../playwright.config.ts';
import type { RenderStats } from '../workers/api.ts';
import { readFile } from 'node:fs/promises';
import { lonLatToScreen } from '../common/map.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { SourceHttp } from '../server/live/http.ts';
import { FIXTURES_DIR } from '../server/live/testing.ts';
import { startObsPoller } from '../server/obs/core/poller.ts';
import type { ObsContext } from '../server/obs/core/source.ts';
import { ObsStore } from '../server/obs/core/store.ts';
import { nwsStationsSource } from '../server/obs/stations/sources.ts';

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

/**
 * The two screens the account, alert, subscription, search, start-up and detail flows run and are
 * screenshotted at: a phone at DPR 2, as phones are, and the common desktop monitor at DPR 1. A
 * high-DPI desktop (1920x1080 at DPR 2: a 3840x2160 canvas) is where sharpness is the subject: the
 * journeys and offline specs (issue 4's screenshots), labels.spec and the render tests at DPR 2.
 * In software GL such a desktop took 6.2 s to open the map and 2.0 s a screenshot, against 3.4 s
 * and 0.5 s at DPR 1; the page's layout, in CSS pixels, is the same.
 */
export const SCREENS = [
  { name: 'phone', width: 360, height: 740, deviceScaleFactor: 2 },
  { name: 'desktop', width: 1920, height: 1080, deviceScaleFactor: 1 },
] as const;

/**
 * How often the waits below look again, ms: Playwright's default backs off to a look a second,
 * which adds half a second on average to every test that opens the map.
 */
const POLL_INTERVALS = [100, 200];

/** Waits until the map has no tile loading. */
export async function settled(page: Page): Promise<void> {
  await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 20_000, intervals: POLL_INTERVALS }).toBe(0);
}

/**
 * Opens the app and waits until particles are on screen, the tiles in view have loaded and the
 * worker has drawn a frame after the first: the map animates. (It waited for six frames: at the
 * frame cap, and slower while the page starts, that added 0.4-0.8 s to each of some 150 tests.)
 */
export async function openMap(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect.poll(async () => {
    try {
      const s = await stats(page);
      return s.firstParticlesAt !== null && s.tiles.loading === 0 && s.frames >= 2;
    } catch {
      return false;
    }
  }, { timeout: 30_000, intervals: POLL_INTERVALS }).toBe(true);
}

/**
 * Shows the first time from now on that is a 3-hour step of the run (SPEC §9: the free tier's point
 * forecasts and city tiles hold 3-hourly values; the map itself steps hourly) and waits until the
 * timeline shows it. Returns that time, ms.
 */
export async function showFreeStep(page: Page): Promise<number> {
  const time = await page.evaluate(() => {
    const { timeline } = (window as unknown as { isobar: { app: { timeline: {
      calendar: { value: { refTime: number; timestamps: number[] } | null };
      setTimestamp(ms: number): void;
    } } } }).isobar.app;
    const calendar = timeline.calendar.value;
    if (!calendar) throw new Error('no calendar yet');
    const hour = 3600_000;
    const steps = calendar.timestamps.filter((t) => (t - calendar.refTime) % (3 * hour) === 0);
    const t = steps.find((s) => s >= Date.now()) ?? steps[steps.length - 1];
    timeline.setTimestamp(t);
    return t;
  });
  await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(time));
  return time;
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

/**
 * Waits until the page stands still for a screenshot: every window has finished opening (its
 * data-phase is 'open'), no CSS transition or animation that has an end is running (an endless one,
 * a spinner, is left to run), and the web fonts are in.
 */
export async function motionSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('section.window:not([data-phase="open"])')
    && document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Waits for `count` animation frames of the page: what was scheduled for the next frame has run. */
export async function animationFrames(page: Page, count = 2): Promise<void> {
  await page.evaluate((n) => new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  }), count);
}

/** Waits until the render worker has drawn `count` more frames: the map shows what was set before. */
export async function workerFrames(page: Page, count = 2): Promise<void> {
  const from = (await stats(page)).frames;
  await expect.poll(async () => (await stats(page)).frames).toBeGreaterThanOrEqual(from + count);
}

/**
 * Notes the time stamp of every pointer move the page receives, for pointerAtRest. Call it before
 * the drag.
 */
export async function watchPointerMoves(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { lastPointerMove?: number };
    addEventListener('pointermove', (e) => {
      w.lastPointerMove = e.timeStamp;
    }, { capture: true });
  });
}

/**
 * Waits until the page's own clock is `restMs` past the last pointer move it received. A drag that
 * holds still like this before the release is not a flick (ui/map/camera.ts measures the speed over
 * the last 100 ms before the release), however late a busy machine delivers the moves.
 */
export async function pointerAtRest(page: Page, restMs = 150): Promise<void> {
  await page.waitForFunction((rest) => {
    const last = (window as unknown as { lastPointerMove?: number }).lastPointerMove;
    return last !== undefined && performance.now() - last >= rest;
  }, restMs);
}

// ---- accounts ----------------------------------------------------------------------------------

export const TEST_PASSWORD = 'Cumulus42';

/** Registers a new user through the API. */
export async function newUser(request: APIRequestContext, prefix = 'user'): Promise<{ email: string; id: string; token: string }> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const answer = await request.post('/users/v1/register', { data: { email, password: TEST_PASSWORD, passwordConfirm: TEST_PASSWORD } });
  expect(answer.status()).toBe(201);
  const body = await answer.json();
  return { email, id: String(body.userInfo.id), token: String(body.token) };
}

/** Logs in through the login window and waits (up to `timeout` ms, else expect's own) until the top bar shows the account. */
export async function loginAs(page: Page, email: string, timeout?: number): Promise<void> {
  await page.goto('/login');
  const form = page.getByTestId('auth-login');
  await form.getByTestId('auth-email').fill(email);
  await form.getByTestId('auth-password').fill(TEST_PASSWORD);
  await form.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-button')).toHaveAttribute('data-logged-in', 'true', { timeout });
}

/** Posts a Stripe event to the e2e server's webhook, signed as Stripe signs it. */
export async function stripeEvent(request: APIRequestContext, type: string, object: Record<string, unknown>): Promise<void> {
  const payload = JSON.stringify({ id: `evt_${Date.now()}`, object: 'event', type, data: { object } });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: E2E_STRIPE_WEBHOOK_SECRET });
  const answer = await request.post('/stripe/webhook', { data: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toEqual({ received: true, handled: true });
}

/** Makes a user Premium as a completed Stripe Checkout does, and waits until the server says so. */
export async function makePremium(request: APIRequestContext, user: { id: string; token: string }): Promise<void> {
  await stripeEvent(request, 'checkout.session.completed', { object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: user.id, status: 'complete' });
  await expect.poll(async () => (await (await request.get('/api/info', { headers: { authorization: `Bearer ${user.token}` } })).json()).subscriptionInfo?.status).toBe('active');
}

/** Where the page draws lon/lat now (CSS px in the page). */
export async function screenOf(page: Page, lon: number, lat: number): Promise<{ x: number; y: number }> {
  const view = await page.evaluate(() => (window as unknown as { isobar: { app: { map: { view: { value: object } } } } }).isobar.app.map.view.value);
  const canvas = await page.locator('canvas').first().boundingBox();
  const at = lonLatToScreen(view as Parameters<typeof lonLatToScreen>[0], lon, lat);
  return { x: at.x + (canvas?.x ?? 0), y: at.y + (canvas?.y ?? 0) };
}

/** Pixels that differ between two screenshots by more than `threshold` in a channel, as a mask. */
export function changedMask(a: Pixels, b: Pixels, threshold: number): Uint8Array {
  const mask = new Uint8Array(a.width * a.height);
  for (let i = 0; i < mask.length; i++) {
    const k = 4 * i;
    if (Math.abs(a.data[k] - b.data[k]) > threshold || Math.abs(a.data[k + 1] - b.data[k + 1]) > threshold || Math.abs(a.data[k + 2] - b.data[k + 2]) > threshold) mask[i] = 1;
  }
  return mask;
}

/** The context an observation source polls with in a test: its store in `dataDir`, its clock stopped at `now`, quiet. */
export function obsTestContext(dataDir: string, now: number): ObsContext {
  return {
    http: new SourceHttp({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
    store: new ObsStore(dataDir),
    log: { debug() {}, info() {}, warn() {}, error() {} },
    now: () => now,
    signal: new AbortController().signal,
  };
}

/** The NWS observation fixture's station (Fort Lauderdale-Hollywood airport, 2022-03-02 23:53Z). */
export const NWS_FIXTURE_STATION = 'KFLL';

/**
 * Publishes the real KFLL observation of ../shared/data/obs/observations into `dataDir` as the NWS
 * station source does: the source polls a fixture server (api.weather.gov's URL layout) once at `now`.
 * tests/station.spec.ts and bench/windows.ts serve it.
 */
export async function publishStationFixture(dataDir: string, now: number): Promise<void> {
  const upstream = await FixtureServer.start();
  try {
    upstream.files.set(`/stations/${NWS_FIXTURE_STATION}/observations/latest`, new Uint8Array(await readFile(`${FIXTURES_DIR}obs/observations/nws-api_stations-observations-latest.json`)));
    const poller = startObsPoller({
      sources: [nwsStationsSource({ ISOBAR_NWS_API_URL: upstream.url, ISOBAR_NWS_STATIONS: NWS_FIXTURE_STATION })], dataDir,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      http: new SourceHttp({ retry: { attempts: 1 } }), pollOnStart: false, now: () => now,
    });
    try {
      const result = await poller.pollNow('nwsStations');
      if (!result.ok) throw new Error(`NWS station fixture not published: ${JSON.stringify(result)}`);
    } finally {
      await poller.stop();
    }
  } finally {
    await upstream.close();
  }
}
