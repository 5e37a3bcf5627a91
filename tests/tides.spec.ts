/**
 * Tides (SPEC §1 tide forecast for Premium, §3 pois "tide", §7 /tides/v1.0/tides/...): the tide
 * stations as the POI layer, a station picked on the map opening its tides in the detail window,
 * where a free user gets the Premium prompt and a subscriber the curve and the high and low waters
 * in the place's local time. Screenshots go to test-results/.
 */

import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { loginAs, makePremium, newUser, openMap, screenOf, screenshotPixels, settled } from './testing.ts';

/** en-US: a region that needs no cookie consent (the consent window shares the detail's pane), the 12-hour clock. */
test.use({ locale: 'en-US' });

/** NOAA 9449880 Friday Harbor, WA, as the station list gives it. */
const FRIDAY_HARBOR = { id: 'noaa:9449880', lat: 48.5453, lon: -123.0125 };

test('the tide POI layer: a station picked on the map opens the detail window, with the Premium prompt for a free user', async ({ page }, testInfo) => {
  await openMap(page, `/?${FRIDAY_HARBOR.lat},${FRIDAY_HARBOR.lon},9`);
  await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { set(k: string, v: unknown): void } } } }).isobar.app.settings.set('particlesAnim', 'off'));
  await settled(page);
  // The city labels are page elements over the map (Friday Harbor's sits on its gauge): out of the pictures.
  await page.addStyleTag({ content: '.city-label, .city-labels { visibility: hidden !important; }' });
  const at = await screenOf(page, FRIDAY_HARBOR.lon, FRIDAY_HARBOR.lat);
  const clip = { x: Math.round(at.x) - 12, y: Math.round(at.y) - 12, width: 24, height: 24 };
  const before = await screenshotPixels(page, clip);

  await page.getByTestId('tide-toggle').click();
  const credit = page.getByTestId('tide-credit');
  await expect.poll(async () => Number(await credit.getAttribute('data-stations'))).toBeGreaterThan(5000);
  await expect(credit).toContainText(/^Tide stations: \d+$/);
  await expect.poll(() => page.url()).toContain('p:tide');
  // A blue disc where the station is: the clip's pixels turn bluer.
  await expect.poll(async () => {
    const after = await screenshotPixels(page, clip);
    let bluer = 0;
    for (let i = 0; i < after.data.length; i += 4) if (after.data[i + 2] - before.data[i + 2] > 40 && after.data[i + 2] > after.data[i] + 60) bluer++;
    return bluer;
  }, { timeout: 15_000 }).toBeGreaterThan(8);
  await page.screenshot({ path: testInfo.outputPath('tides-layer.png') });

  // The picker names the station; its button opens the detail window there.
  await page.mouse.click(at.x, at.y);
  const pick = page.getByTestId('picker-tide');
  await expect(pick).toHaveText('Tide at Friday Harbor');
  await expect(pick).toHaveAttribute('data-station', FRIDAY_HARBOR.id);
  await pick.click();
  // The point forecast's path has 3 decimals (SPEC §9): 100 m from the gauge, whose tides these are.
  await expect(page).toHaveURL(/\/48\.545\/-123\.013\?/);
  const tides = page.getByTestId('detail-tides');
  await expect(tides).toHaveAttribute('data-state', 'premium');
  await expect(page.getByTestId('detail-tides-premium')).toHaveText('The tide forecast is part of Premium');
  await page.screenshot({ path: testInfo.outputPath('tides-free.png') });
  await tides.getByRole('button', { name: 'Get Premium' }).click();
  await expect(page.getByTestId('subscription')).toBeVisible();
});

test('a subscriber sees the curve and the high and low waters in the place\'s local time, with the station\'s credit', async ({ page, request }, testInfo) => {
  const user = await newUser(request, 'tides-premium');
  await makePremium(request, user);
  await loginAs(page, user.email);
  // Friday Harbor's ferry landing, 0.9 km from the gauge.
  await openMap(page, '/48.537/-123.014');
  const tides = page.getByTestId('detail-tides');
  await expect(tides).toHaveAttribute('data-state', 'ready');
  await expect(tides).toHaveAttribute('data-station', FRIDAY_HARBOR.id);
  await expect(page.getByTestId('detail-tides-station')).toHaveText('Station Friday Harbor');
  await expect(page.getByTestId('detail-tides-credit')).toContainText('Heights above MLLW');
  await expect(page.getByTestId('detail-tides-credit')).toContainText('US National Oceanic and Atmospheric Administration');
  await expect(page.getByTestId('detail-tides-credit')).toContainText('Neaps tide database');

  // What the window shows is what the server predicted, at the place's clock (Pacific time, 12-hour).
  const shown = page.getByTestId('detail-tide-extreme');
  await expect.poll(() => shown.count()).toBeGreaterThanOrEqual(10);
  const first = Number(await shown.first().getAttribute('data-time'));
  const answer = await (await request.get(`/tides/v1.0/tides/${FRIDAY_HARBOR.id}?from=${first - 60_000}&to=${first + 60_000}`, { headers: { authorization: `Bearer ${user.token}` } })).json() as { extremes: { time: number; high: boolean }[] };
  // NOAA publishes whole minutes; so does the server, whatever the range asked.
  expect(answer.extremes.map((e) => e.time)).toContain(first);
  expect(first % 60_000).toBe(0);
  const local = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric', minute: '2-digit', hour12: true }).format(first);
  await expect(shown.first()).toContainText(local);
  await expect(shown.first()).toContainText(answer.extremes[0].high ? '▲' : '▼');
  await tides.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('tides-premium.png') });
});
