/**
 * Isolines (issue 14 §1): drawn over the colour layer with their values along the lines and H / L at
 * the pressure extrema, in the user's unit; the control turns them off and changes their type; the
 * address carries i:{type}. Labels never overlap each other or the city labels.
 */

import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { diffRatio, mapClip, openMap, screenshotPixels, settled } from './testing.ts';

interface Rect { left: number; top: number; right: number; bottom: number }

async function rects(page: Page, testId: string): Promise<{ text: string; rect: Rect }[]> {
  return page.getByTestId(testId).evaluateAll((els) => els.filter((el) => !(el as HTMLElement).hidden).map((el) => {
    const r = el.getBoundingClientRect();
    return { text: el.textContent ?? '', rect: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } };
  }));
}

const overlap = (a: Rect, b: Rect) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;

test.describe('isolines', () => {
  test('pressure isolines from the address: lines, values in hPa along them, clear of each other and of the city labels', async ({ page }) => {
    await openMap(page, '/?pressure,50.000,10.000,4,i:pressure');
    await expect(page.getByTestId('isolines-control')).toHaveAttribute('data-shown', 'pressure');
    await expect.poll(async () => (await rects(page, 'isoline-label')).length, { timeout: 20_000 }).toBeGreaterThan(3);
    await settled(page);
    const labels = await rects(page, 'isoline-label');
    for (const { text } of labels) {
      expect(Number(text), `label "${text}"`).toBeGreaterThan(940);
      expect(Number(text)).toBeLessThan(1070);
      // Every 4 hPa.
      expect(Number(text) % 4).toBe(0);
    }
    const cities = await page.locator('.city-label-name').evaluateAll((els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }));
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) expect(overlap(a.rect, b.rect), `${a.text} and ${b.text} overlap`).toBe(false);
      for (const c of cities) expect(overlap(a.rect, c), `${a.text} under a city label`).toBe(false);
    }
    expect(page.url()).toContain('i:pressure');
    await page.screenshot({ path: test.info().outputPath('pressure-isolines.png') });

    // Off: the lines and their labels go, and the address forgets them.
    const clip = mapClip(page);
    const withLines = await screenshotPixels(page, clip);
    await page.getByTestId('isolines-toggle').click();
    await page.locator('[data-isolines="off"]').click();
    await expect(page.getByTestId('isolines-control')).toHaveAttribute('data-shown', 'off');
    await expect.poll(async () => (await rects(page, 'isoline-label')).length).toBe(0);
    await settled(page);
    expect(diffRatio(withLines, await screenshotPixels(page, clip))).toBeGreaterThan(0.002);
    await expect.poll(() => page.url()).not.toContain('i:');

    // Temperature isolines: labels in °C.
    await page.getByTestId('isolines-toggle').click();
    await page.locator('[data-isolines="temp"]').click();
    await expect.poll(async () => (await rects(page, 'isoline-label')).length, { timeout: 20_000 }).toBeGreaterThan(2);
    for (const { text } of await rects(page, 'isoline-label')) expect(text).toMatch(/^-?\d+°C$/);
    await expect.poll(() => page.url()).toContain('i:temp');
  });
});
