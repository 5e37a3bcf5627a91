/**
 * The end-to-end tests' `test`: Playwright's, with every page capped at E2E_FRAME_CAP frames a
 * second (common/frameCap.ts). Chromium draws in software on the same two cores as the server and
 * the runner, and a map animating at full rate takes about one of them; tests that count frames
 * wait for a few, and the bench measures uncapped.
 *
 * The cap is written into the page's storage by an init script before the app's own scripts run:
 * Playwright's `storageState` does the same by loading each origin in a hidden page first, which cost
 * about a second per test. Contexts a test makes itself get it from `newContext`.
 */

import { test as base, type Browser, type BrowserContext, type BrowserContextOptions } from '@playwright/test';
import { FRAME_CAP_STORAGE_KEY } from '../common/frameCap.ts';

/**
 * Frames a second the map draws at most in the end-to-end tests. An animating map at 1280x720 kept
 * 31 % of the two cores busy at 12 frames a second, 17 % at 6 and 60 % uncapped (26.5 frames a
 * second); the detail and new-user specs took 193 s at 12, 164 s at 6 and 157 s at 3.
 */
export const E2E_FRAME_CAP = 6;

/** Caps the map's frame rate in every page of the context, on every origin it loads. */
export async function capFrames(context: BrowserContext, fps = E2E_FRAME_CAP): Promise<void> {
  await context.addInitScript(([key, value]) => {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // about:blank and opaque origins have no storage; the app is never there.
    }
  }, [FRAME_CAP_STORAGE_KEY, String(fps)] as const);
}

/** browser.newContext with the frame cap. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await capFrames(context);
  return context;
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await capFrames(context);
    await use(context);
  },
});
