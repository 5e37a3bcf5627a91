/**
 * What a new user hit (issue 12 §3), each where only the browser shows it: the right pane over the
 * overlay menu, city labels under the bars and in the user's language, the top bar on one row, a
 * route's place, a model the server does not serve, the picker and other items of the shared URL,
 * a forecast after the connection comes back, a rain-only GRIB file, and an overlay no model
 * covers here. Screenshots go to each test's output folder (new-user-*.png).
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { openMap, pickOverlay, stats } from './testing.ts';

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
/** ECMWF IFS total precipitation rate, one step: a file with rain and nothing else. */
const RAIN_ONLY = `${DATA}grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2`;
const SAMPLES = existsSync(`${DATA}samples/`);

interface Isobar {
  app: {
    map: { lat: { value: number }; lon: { value: number }; zoom: { value: number } };
    layer: { overlay: { value: string }; product: { value: string }; level: { value: string } };
    picker: { position: { value: { lat: number; lon: number } | null } };
  };
  services?: { started: Promise<void> };
}

const view = (page: Page) => page.evaluate(() => {
  const { map, layer } = (window as unknown as { isobar: Isobar }).isobar.app;
  return { lat: map.lat.value, lon: map.lon.value, zoom: map.zoom.value, overlay: layer.overlay.value, product: layer.product.value, level: layer.level.value };
});

async function servicesStarted(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => !!(window as unknown as { isobar: Isobar }).isobar.services)).toBe(true);
  await page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.services!.started);
}

/** The top bar's controls: how many rows they take (their distinct tops). */
const topbarRows = (page: Page) => page.evaluate(() => {
  const tops = [...document.querySelectorAll<HTMLElement>('header.topbar > *')]
    .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).display !== 'none')
    .map((el) => el.getBoundingClientRect())
    .map((r) => Math.round(r.top + r.height / 2));
  return new Set(tops.map((t) => Math.round(t / 8))).size;
});

test.describe('item 1: a right-pane window and the overlay menu', () => {
  for (const path of ['/settings', '/subscription']) {
    test(`${path}: the overlay menu and the level selector step aside while the window is open`, async ({ page }, testInfo) => {
      // With the samples, a model with levels: the level selector is on the right too.
      await openMap(page, `${path}${SAMPLES ? '?850h,gfs2p5-20170322,50.000,14.000,5' : '?50.000,14.000,5'}`);
      const levels = page.locator('.level-selector');
      if (SAMPLES) await expect(levels).toHaveCount(1);
      const pane = page.locator('.pane-rhpane > .window');
      await expect(pane).toHaveAttribute('data-phase', 'open');
      await expect(page.getByTestId('overlay-menu')).toBeHidden();
      await expect(levels).toBeHidden();
      await page.screenshot({ path: testInfo.outputPath(`new-user-rhpane${path.replace('/', '-')}.png`) });
      await page.getByTestId('panel-close').click();
      await expect(pane).toHaveCount(0);
      await expect(page.getByTestId('overlay-menu')).toBeVisible();
      if (SAMPLES) await expect(levels).toBeVisible();
    });
  }
});

test.describe('item 3: the top bar stays on one row', () => {
  test.describe('in French', () => {
    test.use({ locale: 'fr-FR' });
    for (const width of [1280, 1024, 800]) {
      test(`/fr/50.087/14.421 at ${width} px: "Se connecter" on the first row`, async ({ page }, testInfo) => {
        await page.setViewportSize({ width, height: 720 });
        await openMap(page, '/fr/50.087/14.421');
        await expect(page.getByTestId('account-button')).toHaveText('Se connecter');
        expect(await topbarRows(page)).toBe(1);
        const button = (await page.getByTestId('account-button').boundingBox())!;
        expect(button.height).toBeLessThan(40);
        await page.screenshot({ path: testInfo.outputPath(`new-user-topbar-fr-${width}.png`) });
      });
    }
  });

  test('"Log in" stays on the first row after opening a GRIB file', async ({ page }, testInfo) => {
    test.skip(!existsSync(RAIN_ONLY), `GRIB fixture not found: ${RAIN_ONLY}`);
    await openMap(page, '/?45.000,10.000,4');
    await page.getByTestId('grib-input').setInputFiles(RAIN_ONLY);
    await expect(page.getByTestId('local-badge')).toBeVisible();
    expect(await topbarRows(page)).toBe(1);
    await expect(page.getByTestId('account-button')).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath('new-user-topbar-grib.png') });
  });
});

test.describe('item 4: a route\'s coordinates win', () => {
  test('/cap-alert/50.087/14.421 centres the map on the window\'s place', async ({ page }) => {
    await page.goto('/cap-alert/50.087/14.421');
    await servicesStarted(page);
    await expect.poll(async () => {
      const v = await view(page);
      return [Math.round(v.lat * 1000) / 1000, Math.round(v.lon * 1000) / 1000];
    }).toEqual([50.087, 14.421]);
  });

  // A point window marks its place and brings it beside itself, not under it.
  for (const [path, panel] of [['/sounding/50.087/14.421', 'sounding'], ['/multimodel/50.087/14.421', 'multimodel'], ['/50.087/14.421', 'detail']]) {
    test(`${path} shows the window's place on the map, beside the window`, async ({ page }) => {
      await page.goto(path);
      await servicesStarted(page);
      const mark = page.getByTestId('point-mark');
      await expect(mark).toHaveAttribute('data-lat', '50.087');
      await expect(mark).toHaveAttribute('data-lon', '14.421');
      const size = page.viewportSize()!;
      await expect.poll(async () => {
        const at = await mark.boundingBox();
        const window = await page.locator(`section.window[data-panel="${panel}"]`).boundingBox();
        if (!at || !window) return 'not drawn';
        const x = at.x + at.width / 2;
        const y = at.y + at.height / 2;
        if (x < 0 || y < 0 || x > size.width || y > size.height) return `off the map at ${x}, ${y}`;
        const under = x >= window.x && x <= window.x + window.width && y >= window.y && y <= window.y + window.height;
        return under ? `under the window at ${x}, ${y}` : 'shown';
      }, { timeout: 15_000 }).toBe('shown');
    });
  }
});

test.describe('items 6 and 7: the shared URL', () => {
  test('d:picker reopens the picker; the address keeps d:picker, gets m: and keeps i: and p:', async ({ page }) => {
    await openMap(page, '/?rain,50.087,14.421,6,i:pressure,p:cities,d:picker');
    await expect(page.getByTestId('picker-value')).toBeVisible();
    await expect(page.getByTestId('picker')).toHaveAttribute('data-lat', '50.087');
    await expect.poll(() => new URL(page.url()).search).toMatch(/^\?rain,50\.087,14\.421,6,m:[A-Za-z0-9]{5},i:pressure,p:cities,d:picker$/);
    // The address read back reopens the picker where it was (its 0.01° location code).
    await openMap(page, `/${new URL(page.url()).search}`);
    await expect(page.getByTestId('picker')).toHaveAttribute('data-lat', '50.09');
    await expect(page.getByTestId('picker')).toHaveAttribute('data-lon', '14.42');
    // Closed, the picker leaves the address.
    await page.getByTestId('picker').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?rain,50.087,14.421,6,i:pressure,p:cities');
  });

  test('one unknown item is ignored on its own: the rest of the list places the map', async ({ page }) => {
    test.skip(!SAMPLES, 'samples not found');
    await openMap(page, '/?temp,850h,gfs2p5-20170322,50.087,14.421,5,utm_source=x,foo=bar');
    await expect.poll(async () => {
      const v = await view(page);
      return { ...v, lat: Math.round(v.lat * 1000) / 1000, lon: Math.round(v.lon * 1000) / 1000 };
    }).toEqual({ lat: 50.087, lon: 14.421, zoom: 5, overlay: 'temp', product: 'gfs2p5-20170322', level: '850h' });
    await expect.poll(() => new URL(page.url()).search).toBe('?850h,temp,gfs2p5-20170322,50.087,14.421,5&foo=bar');
  });
});

test.describe('item 9: a local file has only its own layers', () => {
  test('a dropped rain-only GRIB file shows rain and asks for no wind tile', async ({ page }, testInfo) => {
    test.skip(!existsSync(RAIN_ONLY), `GRIB fixture not found: ${RAIN_ONLY}`);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Failed to load tile')) warnings.push(m.text());
    });
    await openMap(page, '/?45.000,10.000,4');
    const base64 = (await readFile(RAIN_ONLY)).toString('base64');
    await page.evaluate(async (text) => {
      const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'ecmwf-ifs0p25_tprate.grib2'));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
    }, base64);
    await expect(page.getByTestId('local-badge')).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as unknown as { isobar: Isobar }).isobar.app.layer.overlay.value)).toBe('rain');
    await expect.poll(async () => {
      const s = await stats(page);
      return s.tiles.loading === 0 && s.tiles.loaded > 0;
    }).toBe(true);
    const s = await stats(page);
    expect(s.tiles.failed).toBe(0);
    expect(warnings).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('new-user-grib-rain.png') });
  });
});

test.describe('item 5: a model the server does not serve', () => {
  test('/50.087/14.421/gfs/meteogram falls back to a served model with the SPEC §8 message, never asking for GFS', async ({ page }, testInfo) => {
    const served = await (await page.request.get('/metadata/v1.0/products.json')).json() as { products: { ident: string }[] };
    test.skip(served.products.some((p) => p.ident === 'gfs'), 'this server serves GFS');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/forecast/')) asked.push(new URL(r.url()).pathname);
    });
    await openMap(page, '/50.087/14.421/gfs/meteogram');
    const mapProduct = (await view(page)).product;
    const detail = page.getByTestId('detail');
    await expect(detail).toHaveAttribute('data-product', mapProduct);
    await expect(page.getByTestId('detail-reverted')).toHaveText(/^Selected model \(GFS\) is unavailable in current location\. Reverting to previous model \(.+\)\.$/);
    await expect(page.getByTestId('detail-meteogram-view')).toBeVisible();
    await expect(detail).not.toContainText('Error loading forecast');
    expect(asked.filter((p) => p.includes('/gfs/'))).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('new-user-detail-reverted.png') });
  });
});

test.describe('item 8: a forecast opened offline', () => {
  test('loads by itself once the connection is back: the error and its Retry go', async ({ page, context }, testInfo) => {
    await openMap(page, '/?45.000,10.000,4');
    await servicesStarted(page);
    const navigate = (path: string) => page.evaluate((p) => (window as unknown as { isobar: { app: { router: { navigate(p: string): Promise<boolean> } } } }).isobar.app.router.navigate(p), path);
    // The window's code and language bundle load while online (as they do when the browser is idle).
    await navigate('/45.000/10.000');
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await page.getByTestId('detail-close').click();
    await context.setOffline(true);
    await navigate('/50.087/14.421');
    const detail = page.getByTestId('detail');
    await expect(detail).toContainText('Error loading forecast for');
    await expect(detail.getByRole('button', { name: 'Retry' })).toBeVisible();
    // The failed request made the connection probe the site: it knows it is offline.
    await expect.poll(() => page.evaluate(() => (window as unknown as { isobar: { services: { connection: { state: { value: string } } } } }).isobar.services.connection.state.value)).toBe('offline');
    await context.setOffline(false);
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await expect(detail).not.toContainText('Error loading forecast');
    await page.screenshot({ path: testInfo.outputPath('new-user-detail-online-again.png') });
  });
});

test.describe('item 10: an overlay no model covers here', () => {
  test('PM2.5 over Prague says why and offers the nearest model that has it, which moves the map there', async ({ page }, testInfo) => {
    test.skip(!SAMPLES, 'samples not found (the air-quality sample is the model with PM2.5)');
    await openMap(page, '/?50.087,14.421,5');
    await pickOverlay(page, 'pm2p5');
    const offer = page.getByTestId('overlay-offer');
    await expect(offer).toContainText('PM2.5: Data not available for this location');
    await expect(offer).toBeInViewport();
    await expect(offer).toHaveAttribute('data-product', 'gefsaero-20240309');
    expect((await view(page)).overlay).toBe('wind');
    await page.screenshot({ path: testInfo.outputPath('new-user-pm2p5-offer.png') });
    await page.getByTestId('overlay-offer-take').click();
    await expect(offer).toHaveCount(0);
    await expect.poll(async () => {
      const v = await view(page);
      return [v.overlay, v.product, v.lat < 40 && v.lon > 0 && v.lon < 54.75];
    }).toEqual(['pm2p5', 'gefsaero-20240309', true]);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    await page.screenshot({ path: testInfo.outputPath('new-user-pm2p5-taken.png') });
  });
});

test.describe('item 2: city labels', () => {
  test('never under the top bar, the timeline or another control, never cut at an edge', async ({ page }, testInfo) => {
    await openMap(page, '/?temp,48.000,14.000,5');
    await expect.poll(() => page.getByTestId('city-label').count()).toBeGreaterThan(10);
    await expect.poll(() => page.evaluate(() => {
      const boxes = (selector: string) => [...document.querySelectorAll(selector)].map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0);
      const controls = boxes('header.topbar > *, .bottom > *, .overlay-menu, .level-selector');
      const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const bad: string[] = [];
      for (const label of document.querySelectorAll<HTMLElement>('.city-label')) {
        const r = label.getBoundingClientRect();
        const name = label.querySelector('.city-label-name')!.textContent;
        if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) bad.push(`${name} cut at an edge`);
        else if (controls.some((c) => overlaps(r, c))) bad.push(`${name} under a control`);
      }
      return bad;
    })).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('new-user-labels-placement.png') });
  });

  test.describe('in a German browser', () => {
    test.use({ locale: 'de-DE' });
    test('Prague and Warsaw are Prag and Warschau', async ({ page }, testInfo) => {
      await openMap(page, '/?temp,51.000,18.000,5');
      const names = page.locator('.city-label-name');
      await expect(names.filter({ hasText: /^Prag$/ })).toHaveCount(1);
      await expect(names.filter({ hasText: /^Warschau$/ })).toHaveCount(1);
      await expect(names.filter({ hasText: /^(Prague|Warsaw)$/ })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath('new-user-labels-de.png') });
    });
  });
});
