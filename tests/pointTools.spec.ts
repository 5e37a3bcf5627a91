/**
 * Point tools in the browser against the real server: the map's context menu (SPEC §2 window
 * contextmenu) leading to the multi-model window (SPEC §2 /multimodel), its pane rule, copying
 * coordinates; and a user's own webcams (SPEC §2 /webcams/add, edit, remove) while logged in.
 * The e2e server has no webcam directory key (ISOBAR_WEBCAMS_KEY): the list holds the user's own
 * webcams only, and says so. The webcam's image is served over HTTPS by a local stand-in for a
 * webcam's host (E2E_WEBCAM_ORIGIN, let through the server's address check) with neither CORP nor
 * CORS headers, so it loads in the cross-origin isolated page only through the server's image relay;
 * an address on it that answers 404 shows the line that the image cannot be shown.
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { expect, type Locator } from '@playwright/test';
import { E2E_WEBCAM_CERT, E2E_WEBCAM_ORIGIN, E2E_WEBCAM_PORT } from '../playwright.config.ts';
import { test } from './fixtures.ts';
import { loginAs, mapClip, newUser, openMap } from './testing.ts';

/** en-US: no cookie consent window over the map. */
test.use({ locale: 'en-US' });

test('right-click menu: keyboard, Escape, copy coordinates, then the multi-model window and its pane rule; screenshots', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openMap(page, '/');
  const clip = mapClip(page);
  const at = { x: clip.x + clip.width / 2, y: clip.y + clip.height / 2 };

  await page.mouse.click(at.x, at.y, { button: 'right' });
  const menu = page.getByTestId('context-menu');
  await expect(menu).toBeVisible();
  const items = menu.getByRole('menuitem');
  await expect(items).toHaveText(['Forecast here', 'Sounding here', 'Compare models here', 'Nearest airports', 'Nearest weather stations', 'Webcams nearby', 'Copy coordinates']);
  // The first entry has the focus; arrows move it round; Escape closes.
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  // No picker came with the right-click.
  await expect(page.getByTestId('picker')).toHaveCount(0);

  // Copy coordinates: in the clipboard, and a line says so.
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  const copied = page.getByTestId('context-copied');
  await expect(copied).toContainText('Coordinates copied: ');
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(text).toMatch(/^-?\d+\.\d{3}, -?\d+\.\d{3}$/);
  expect(await copied.textContent()).toContain(text);

  // A press outside closes it; then "Compare models here" opens the multi-model window at that point.
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await expect(menu).toBeVisible();
  await page.mouse.click(clip.x + 20, clip.y + clip.height - 200);
  await expect(menu).toHaveCount(0);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await menu.getByRole('menuitem', { name: 'Compare models here' }).click();
  const [lat, lon] = text.split(', ');
  await expect(page).toHaveURL(new RegExp(`/multimodel/${lat}/${lon}`));
  const mm = page.getByTestId('multimodel');
  await expect(mm).toBeVisible();
  await expect(page.getByTestId('multimodel-coords')).toHaveText(text);
  // Today's products: the demo product (labelled), its run time and grid; a value in every compared row.
  const today = page.getByTestId('multimodel-today');
  await expect(today.locator('th.mm-model[data-product="demo"]').first()).toContainText('Demo data');
  await expect(today.getByTestId('multimodel-run').first()).toContainText(/Run .* UTC/);
  for (const q of ['temp', 'wind', 'gust', 'clouds']) {
    await expect(today.locator(`tr[data-row="${q}:demo"] td[data-value]`).first()).toBeVisible();
  }
  // The samples stand apart, each on its own date, never in today's table.
  const samples = page.getByTestId('multimodel-samples');
  if (await samples.count()) {
    await expect(samples.getByTestId('multimodel-sample-date').first()).toContainText(/Sample of .*not a forecast for today/);
    await expect(today.locator('th.mm-model[data-product^="gfs2p5"]')).toHaveCount(0);
  }
  await expect(page.locator('section.window-multimodel')).toHaveClass(/open/);
  await page.screenshot({ path: 'test-results/multimodel-1280x720.png' });

  // SPEC §2: a right-pane window closes the multi-model window.
  await page.goto(page.url().replace(/\/multimodel\/.*/, '/multimodel/50.087/14.421'));
  await expect(mm).toBeVisible();
  await page.evaluate(() => (window as unknown as { isobar: { app: { router: { navigate(p: string): Promise<boolean> } } } }).isobar.app.router.navigate('/settings'));
  await expect(page.locator('section.window-settings')).toBeVisible();
  await expect(page.locator('section.window-multimodel')).toHaveCount(0);

  // "Nearest airports" at Prague: Václav Havel Airport (LKPR) first, which opens the airport window.
  await page.goto('/?50.100,14.260,8');
  await expect(page.getByTestId('map')).toBeVisible();
  const mapBox = (await page.getByTestId('map').boundingBox())!;
  await page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2, { button: 'right' });
  await menu.getByRole('menuitem', { name: 'Nearest airports' }).click();
  const airports = page.getByTestId('nearest-airports');
  await expect(airports.locator('button').first()).toHaveAttribute('data-airport', 'LKPR');
  await expect(airports.locator('button').first()).toContainText(/LKPR \/ PRG · \d+(\.\d)? (km|mi)/);
  await page.screenshot({ path: 'test-results/nearest-airports.png' });
  await airports.locator('button').first().click();
  await expect(page).toHaveURL(/\/airport\/LKPR/);
  // "Nearest weather stations": this server follows no station near Prague, and says so.
  await page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2, { button: 'right' });
  await menu.getByRole('menuitem', { name: 'Nearest weather stations' }).click();
  await expect(page.getByTestId('nearest-stations-none')).toHaveText('No weather station within 300 km');
});

/** The webcam's host: /garden.jpg is the image, anything else 404. */
function serveWebcamHost(): Promise<() => Promise<void>> {
  const testdata = (name: string) => readFileSync(new URL(`../server/webcams/testdata/${name}`, import.meta.url));
  const jpeg = testdata('cam.jpg');
  const host = createServer({ cert: readFileSync(E2E_WEBCAM_CERT), key: testdata('host.key') }, (req, res) => {
    if (req.url === '/garden.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  return new Promise((resolve) => host.listen(E2E_WEBCAM_PORT, '127.0.0.1', () => resolve(() => new Promise((done) => {
    host.closeAllConnections();
    host.close(() => done());
  }))));
}

/** The image has loaded (decoded, with its width), through the server's relay. */
async function expectImageLoaded(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
}

let closeWebcamHost: () => Promise<void>;
test.beforeAll(async () => {
  closeWebcamHost = await serveWebcamHost();
});
test.afterAll(() => closeWebcamHost());

test('a user\'s own webcam: added, shown with the webcams nearby and on its page, edited, made a favourite, removed; screenshots', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await newUser(request, 'webcams');
  await loginAs(page, user.email);
  // The list is of the map's centre: the search part puts it at Prague, where the webcam will be.
  const AT = '?50.087,14.421,6';
  await page.goto(`/webcams${AT}`);
  const list = page.getByTestId('webcams-list');
  await expect(list).toBeVisible();
  await expect(list.getByTestId('webcams-no-directory')).toBeVisible();
  await list.getByTestId('webcams-add').click();
  await expect(page).toHaveURL(/\/webcams\/add(\?|$)/);

  // The form checks its fields as the server does.
  const form = page.getByTestId('webcam-form');
  await form.getByTestId('webcam-title').fill('Garden cam');
  await form.getByTestId('webcam-lat').fill('50.0870');
  await form.getByTestId('webcam-lon').fill('14.4210');
  await form.getByTestId('webcam-imageUrl').fill('http://93.184.215.14/garden.jpg');
  await form.getByTestId('webcam-save').click();
  await expect(form.getByTestId('webcam-field-error')).toHaveText('The address must begin with https://');
  // The server refuses an address on a private network, and says why.
  await form.getByTestId('webcam-imageUrl').fill('https://192.168.1.20/garden.jpg');
  await form.getByTestId('webcam-save').click();
  await expect(form.getByTestId('webcam-save-error')).toContainText('not public (private)');
  await form.getByTestId('webcam-imageUrl').fill(`${E2E_WEBCAM_ORIGIN}/garden.jpg`);
  await form.getByTestId('webcam-pageUrl').fill('https://93.184.215.14/');
  await page.screenshot({ path: 'test-results/webcams-add-1280x720.png' });
  await form.getByTestId('webcam-save').click();

  // Its page: the server's numeric id in the address, the title, the live-image line, its actions.
  await expect(page).toHaveURL(/\/webcams\/\d{16}(\?|$)/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const detail = page.getByTestId('webcam-detail');
  await expect(detail.getByTestId('webcam-title')).toHaveText('Garden cam');
  await expect(detail.getByTestId('webcam-time')).toHaveText("Live image, fetched by this server from the webcam's address");
  // The image, from a host without CORP or CORS, through the relay.
  await expectImageLoaded(detail.getByTestId('webcam-image'));
  await detail.getByTestId('webcam-fav').click();
  await expect(detail.getByTestId('webcam-fav')).toHaveAttribute('aria-pressed', 'true');
  await page.screenshot({ path: 'test-results/webcams-detail-1280x720.png' });

  // Nearby: listed as the user's, nearest first.
  await page.goto(`/webcams${AT}`);
  const item = page.getByTestId('webcams-item').filter({ hasText: 'Garden cam' });
  await expect(item).toContainText('Yours');
  await expectImageLoaded(item.getByTestId('webcam-image'));
  await page.screenshot({ path: 'test-results/webcams-list-1280x720.png' });

  // Edit: the same id, the new title, an image address its host answers 404 to: the line that says so.
  await page.goto(`/webcams/edit/${id}${AT}`);
  await expect(page.getByTestId('webcam-title')).toHaveValue('Garden cam');
  await page.getByTestId('webcam-title').fill('Garden cam, north');
  await page.getByTestId('webcam-imageUrl').fill(`${E2E_WEBCAM_ORIGIN}/north.jpg`);
  await page.getByTestId('webcam-save').click();
  await expect(page).toHaveURL(new RegExp(`/webcams/${id}(\\?|$)`));
  await expect(page.getByTestId('webcam-detail').getByTestId('webcam-title')).toHaveText('Garden cam, north');
  await expect(page.getByTestId('webcam-detail').getByTestId('webcam-image-failed')).toHaveText("The image could not be loaded: the webcam's host did not send a usable image");

  // Remove, after the question; then it is not found.
  await page.getByTestId('webcam-remove').click();
  await expect(page).toHaveURL(new RegExp(`/webcams/remove/${id}(\\?|$)`));
  await expect(page.getByTestId('webcam-remove-question')).toHaveText('Remove the webcam “Garden cam, north”?');
  await page.getByTestId('webcam-remove-confirm').click();
  await expect(page).toHaveURL(/\/webcams(\?|$)/);
  await expect(page.getByTestId('webcams-list')).toContainText('Within 50 km of 50.087, 14.421');
  await expect(page.getByTestId('webcams-empty')).toHaveText('No webcams within 50 km');
  await page.goto(`/webcams/${id}`);
  await expect(page.getByTestId('webcam-not-found')).toHaveText(`Webcam ${id} not found`);
});

test('webcams opened by their own address list those near where the map opens, not near its default view', async ({ page }) => {
  // en-US without a GeoIP database: the map opens at the country's capital (SPEC §2 start-up position).
  await page.goto('/webcams');
  await expect(page.getByTestId('webcams-list')).toContainText(/Within 50 km of 38\.\d{3}, -77\.\d{3}/, { timeout: 30_000 });
  const centre = await page.evaluate(() => {
    const { map } = (window as unknown as { isobar: { app: { map: { lat: { value: number }; lon: { value: number } } } } }).isobar.app;
    return `${map.lat.value.toFixed(3)}, ${map.lon.value.toFixed(3)}`;
  });
  await expect(page.getByTestId('webcams-list')).toContainText(`Within 50 km of ${centre}`);
});
