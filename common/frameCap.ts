/**
 * A cap on the map's frame rate while it animates: fewer frames for a device that should save power
 * (a low-end phone on battery), and for the end-to-end tests, whose Chromium draws in software on the
 * same two cores as the server and the test runner (playwright.config.ts sets it). Not a SPEC
 * setting: a local option read at start from the browser's storage (FRAME_CAP_STORAGE_KEY), and
 * RenderApi.setFrameCap.
 */

export const FRAME_CAP_STORAGE_KEY = 'isobar.frameCap';
export const MIN_FRAME_CAP = 1;
export const MAX_FRAME_CAP = 120;

export function clampFrameCap(fps: number): number {
  return Math.min(MAX_FRAME_CAP, Math.max(MIN_FRAME_CAP, fps));
}

/** A stored cap: a whole number of frames a second in range, else null (no cap). */
export function parseFrameCap(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\d{1,3}$/.test(value.trim())) return null;
  const fps = Number(value.trim());
  return fps >= MIN_FRAME_CAP && fps <= MAX_FRAME_CAP ? fps : null;
}
