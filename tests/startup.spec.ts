/**
 * What happens around the map at start-up (SPEC §2 "Start page", §4 Consent and Startup position,
 * §5 browser support, §7 error endpoint and beacons, §8 error reporting): the start-up weather
 * card at the user's approximate location, consent and page-view beacons, client error reports,
 * the browser support error. The 'unlegal embed' notice is in embed.spec.ts.
 */

import { expect, type Page, type Request } from '@playwright/test';
import { test } from './fixtures.ts';
import { motionSettled, openMap, SCREENS, stats } from './testing.ts';

interface Isobar {
  app: { map: { lat: { value: number }; lon: { value: number }; zoom: { value: number } }; settings: { get(key: string): unknown } };
  services?: {
    started: Promise<void>;
    reporter: { phase: string; sent: number };
    consent: { state: { value: string }; queued: { value: { page: string }[] } };
    connection: { online: { value: boolean } };
  };
}
/** The consent model's state and the page views waiting for the answer. */
const consentOf = (page: Page) => page.evaluate(() => {
  const { consent } = (window as unknown as { isobar: Isobar }).isobar.services!;
  return { state: consent.state.value, queued: consent.queued.value.map((v) => v.page) };
});
const isobar = (page: Page) => page.evaluate(() => !!(window as unknown as { isobar: Isobar }).isobar.services);

async function servicesStarted(page: Page): Promise<void> {
  await expect.poll(() => isobar(page)).toBe(true);
  await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.services!.started);
}

function collect(page: Page, match: (r: Request) => boolean): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (match(r)) seen.push(r);
  });
  return seen;
}

const beacon = (r: Request) => r.method() === 'HEAD' && new URL(r.url()).pathname.startsWith('/sedlina/ga/');
const errorReport = (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/sedlina/errors';

test.describe('start-up weather (SPEC §2, §4)', () => {
  for (const size of SCREENS) {
    test.describe(`${size.name} ${size.width}x${size.height}`, () => {
      test.use({ viewport: { width: size.width, height: size.height }, deviceScaleFactor: size.deviceScaleFactor });

      test('the home path opens at the approximate location with the weather card; a key closes it', async ({ page }, testInfo) => {
        test.setTimeout(90_000);
        await page.goto('/');
        await servicesStarted(page);
        // en-GB: the country's capital (no GeoIP database), zoom 5.
        const view = await page.evaluate(() => {
          const { map } = (window as unknown as { isobar: Isobar }).isobar.app;
          return { lat: map.lat.value, lon: map.lon.value, zoom: map.zoom.value };
        });
        expect(view.lat).toBeCloseTo(51.5, 0);
        expect(view.lon).toBeCloseTo(-0.13, 0);
        expect(view.zoom).toBe(5);
        const card = page.getByTestId('startup-weather');
        await expect(card).toBeVisible();
        await expect(card).toContainText('Near London');
        await expect(card).toContainText('Approximate location');
        await expect(page.getByTestId('startup-temp')).toHaveText(/^-?\d+°C$/);
        await expect(card.getByRole('button', { name: 'Search better location' })).toBeVisible();
        await expect(card.getByRole('button', { name: 'Back to home' })).toBeVisible();
        await expect(page.getByTestId('bottom-message')).toContainText('Isobar');
        // The map at its new place before the picture.
        await expect.poll(async () => {
          const s = await stats(page);
          return s.tiles.loading === 0 && s.firstParticlesAt !== null;
        }, { timeout: 40_000 }).toBe(true);
        await motionSettled(page);
        await page.screenshot({ path: testInfo.outputPath(`startup-${size.name}.png`) });
        // The IP location is kept for 12 h (SPEC §9).
        const ip = await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.settings.get('ipLocation')) as { cc: string; ts: number };
        expect(ip.cc).toBe('gb');
        // A key anywhere closes it.
        await page.keyboard.press('Shift');
        await expect(card).toHaveCount(0);
      });
    });
  }

  test('coordinates in the URL win: no move, no card; the last position is saved as the map moves', async ({ page }) => {
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    const view = await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.map.lat.value);
    expect(view).toBeCloseTo(45, 3);
    await expect(page.getByTestId('startup-weather')).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.settings.get('startUpLastPosition')), { timeout: 5000 })
      .toEqual({ lat: 45, lon: 10, zoom: 4, source: 'maps' });
  });

  test('back to home recentres at zoom 5', async ({ page }) => {
    await openMap(page, '/');
    await servicesStarted(page);
    const card = page.getByTestId('startup-weather');
    await expect(card).toBeVisible();
    await page.evaluate(() => (window as unknown as { isobar: { app: { map: { moveTo(c: object): void } } } }).isobar.app.map.moveTo({ lat: 10, lon: 10, zoom: 3 }));
    await card.getByRole('button', { name: 'Back to home' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.map.zoom.value)).toBe(5);
    expect(await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.map.lat.value)).toBeCloseTo(51.5, 0);
    await expect(card).toHaveCount(0);
  });
});

test.describe('consent (SPEC §4) and page-view beacons (SPEC §7)', () => {
  test('en-GB needs consent: nothing is sent until analytics is allowed; then the waiting page views go out', async ({ page }) => {
    const beacons = collect(page, beacon);
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    const consent = page.getByTestId('consent');
    await expect(consent).toBeVisible();
    // The page views so far were taken, and wait for the answer instead of leaving.
    await expect.poll(async () => (await consentOf(page)).queued).toEqual(expect.arrayContaining(['startup', 'consent']));
    expect(beacons).toHaveLength(0);
    await consent.getByRole('button', { name: 'Allow analytics' }).click();
    await expect(consent).toHaveCount(0);
    await expect.poll(() => beacons.map((r) => new URL(r.url()).searchParams.get('page'))).toEqual(expect.arrayContaining(['startup', 'consent']));
    const query = new URL(beacons[0].url()).searchParams;
    expect(query.get('lang')).toBe('en');
    expect(query.get('screen')).toMatch(/^\d+x\d+$/);
    expect(query.get('cid')).toMatch(/^[a-z0-9]{16}$/);
    expect(Number(query.get('elapsed'))).toBeGreaterThan(0);
    const stored = await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.settings.get('consent')) as Record<string, unknown>;
    expect(stored).toMatchObject({ version: '2023/11', analytics: true, explicit: true });
    // Stored: the next visit does not ask again. Its page views leave at once, which the consent
    // model does only once it has taken the stored answer (instead of opening the window).
    const sentBefore = beacons.length;
    await page.reload();
    await servicesStarted(page);
    await expect.poll(() => beacons.length).toBeGreaterThan(sentBefore);
    expect((await consentOf(page)).state).toBe('analytics');
    await expect(page.getByTestId('consent')).toHaveCount(0);
  });

  test('necessary only: no beacon leaves the page', async ({ page }) => {
    const beacons = collect(page, beacon);
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    await page.getByTestId('consent').getByRole('button', { name: 'Necessary only' }).click();
    // The answer is taken and the waiting page views are dropped, none sent.
    await expect.poll(() => consentOf(page)).toEqual({ state: 'rejected', queued: [] });
    expect(beacons).toHaveLength(0);
    expect(await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.settings.get('consent'))).toMatchObject({ analytics: false, explicit: true });
  });

  test.describe('a region that needs no consent', () => {
    test.use({ locale: 'en-US' });
    test('gets implicit consent: no window, beacons at once', async ({ page }) => {
      const beacons = collect(page, beacon);
      await openMap(page, '/?45.000,10.000,4');
      await servicesStarted(page);
      await expect.poll(() => beacons.length).toBeGreaterThan(0);
      await expect(page.getByTestId('consent')).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.settings.get('consent'))).toMatchObject({ analytics: true, explicit: false });
    });
  });
});

test.describe('error reports (SPEC §7, §8)', () => {
  test('a browser error and a reference-error rejection are posted with their phase; repeats only every 10th', async ({ page }) => {
    const reports = collect(page, errorReport);
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    await page.evaluate(() => {
      for (let i = 0; i < 11; i++) setTimeout(() => (window as unknown as { surelyMissing(): void }).surelyMissing());
      void Promise.reject(new ReferenceError('missingThing is not defined'));
      void Promise.reject(new TypeError('not reported'));
    });
    await expect.poll(() => reports.length).toBe(3);
    const bodies = reports.map((r) => r.postDataJSON() as Record<string, unknown>);
    const errors = bodies.filter((b) => b.type === 'error');
    expect(errors.map((b) => b.repeated)).toEqual([0, 10]);
    expect(errors[1].msg).toMatch(/\(repeated\)$/);
    expect(errors[0]).toMatchObject({ runningPhase: '3_redrawFinished', target: 'index', device: 'desktop', platform: 'desktop', overlay: 'wind' });
    expect(bodies.find((b) => b.type === 'unhandledrejection')).toMatchObject({ msg: 'ReferenceError: missingThing is not defined' });
    const responses = await Promise.all(reports.map((r) => r.response()));
    expect(responses.map((r) => r?.status())).toEqual([204, 204, 204]);
  });

  test('nothing is posted while offline', async ({ page, context }) => {
    const reports = collect(page, errorReport);
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    await context.setOffline(true);
    await expect(page.getByTestId('top-message')).toHaveAttribute('data-message', 'offline');
    const sent = () => page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.services!.reporter.sent);
    const sentBefore = await sent();
    // An error while offline: once a listener added after the reporter's has seen it, the reporter
    // has handled it (listeners run in order), and it sent nothing.
    const thrown = (name: string) => page.evaluate((what) => new Promise<void>((resolve) => {
      addEventListener('error', (e) => {
        if (e.message.includes(what)) resolve();
      });
      setTimeout(() => {
        throw new Error(`${what} failed`);
      });
    }), name);
    await thrown('offlineMissing');
    expect(await sent()).toBe(sentBefore);
    // Back online, the next error is posted and the one of the offline time never is: dropped, not kept.
    await context.setOffline(false);
    await expect.poll(() => page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.services!.connection.online.value)).toBe(true);
    await thrown('onlineMissing');
    const messages = () => reports.map((r) => (r.postDataJSON() as { msg: string }).msg);
    await expect.poll(() => messages().filter((m) => m.includes('onlineMissing'))).toHaveLength(1);
    expect(messages().filter((m) => m.includes('offlineMissing'))).toEqual([]);
  });
});

test.describe('browser support (SPEC §5)', () => {
  test('missing ResizeObserver and IndexedDB: the error names them for 10 s; the map still runs', async ({ page }, testInfo) => {
    await page.addInitScript(() => {
      delete (window as unknown as { ResizeObserver?: unknown }).ResizeObserver;
      Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
    });
    await openMap(page, '/?45.000,10.000,4');
    const message = page.getByTestId('top-message');
    await expect(message).toHaveAttribute('data-message', 'browserSupport');
    await expect(message).toContainText('ResizeObserver, IndexedDB');
    await expect(message).toContainText('Chrome on desktop');
    await page.screenshot({ path: testInfo.outputPath('browser-support.png') });
    await expect(message).toHaveCount(0, { timeout: 12_000 });
  });
});
