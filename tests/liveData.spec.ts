/**
 * Real data by default (issue 13 §1), end to end: a server of its own, started with nothing in its
 * data directory and ISOBAR_SOURCES=gfs pointed at the fixture server (server/live/fixtureServer.ts,
 * the NOAA layout, throttled to a 50 Mbit/s home connection) holding a whole GFS run built from a
 * real GFS file (server/live/fixtureRun.ts). The page starts on what there is; the first real step
 * is served and drawn (the "Demo data" label goes, the picker shows GFS and says "N of 121 steps");
 * the rest arrives (N grows); the server is restarted mid-run and resumes (the steps on disk are
 * not fetched again; the count goes on from where it was).
 */

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { GFS_STEPS, newestGfsRun, putGfsRun } from '../server/live/fixtureRun.ts';
import { startAppServer, stopAppServer } from './appServer.ts';
import { stats } from './testing.ts';

const ANALYSIS = fileURLToPath(new URL('../../shared/data/samples/gfs-2p5-full/gfs2p5_20170322T00_f000_full.grib2', import.meta.url));
const present = existsSync(ANALYSIS);
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`GFS fixture missing: ${ANALYSIS} (ISOBAR_REQUIRE_FIXTURES=1)`);

const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093) + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e', 'live-data');
/** A home connection (issue 13 §1 bench: 50 Mbit/s). */
const BYTES_PER_SECOND = 50e6 / 8;
/** Steps after this one are held upstream until the restart, so that the restart comes mid-run. */
const HELD_AFTER = 3;
/** Steps after the first, up to HELD_AFTER, are held until the page has drawn the first one. */
const firstHeld = GFS_STEPS.filter((s) => s > 0 && s <= HELD_AFTER);

/**
 * Starts server/main.ts on PORT with the live source; resolves once it answers. No observation
 * sources: with ISOBAR_SOURCES naming a model, the keyless ones would be followed, and there is no
 * internet here.
 */
const startServer = (fixtureUrl: string, log: string) =>
  startAppServer({ port: PORT, dataDir: DATA_DIR, log, env: { ISOBAR_SOURCES: 'gfs', ISOBAR_GFS_URL: fixtureUrl, ISOBAR_OBS: 'none' } });

/** The picker's "GFS 00Z: N of 121 steps", as N; null while it says nothing. */
async function stepsIn(page: Page): Promise<number | null> {
  const text = await page.getByTestId('product-arriving').textContent({ timeout: 1000 }).catch(() => null);
  const match = text ? /GFS \d\dZ: (\d+) of (\d+) steps/.exec(text) : null;
  return match ? Number(match[1]) : null;
}

test.describe('live data from the fixture server', () => {
  test.skip(!present, 'GFS fixture missing');
  let fixture: FixtureServer;
  let server: ChildProcess | null = null;
  let release: () => void = () => undefined;
  let releaseSecond: () => void = () => undefined;

  test.beforeAll(async () => {
    await rm(DATA_DIR, { recursive: true, force: true });
    await mkdir(DATA_DIR, { recursive: true });
    fixture = await FixtureServer.start();
    fixture.bytesPerSecond = BYTES_PER_SECOND;
    putGfsRun(fixture, new Uint8Array(await readFile(ANALYSIS)), newestGfsRun(Date.now()));
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const second = new Promise<void>((resolve) => {
      releaseSecond = resolve;
    });
    const stepNames = (steps: readonly number[]) => steps.map((s) => String(s).padStart(3, '0')).join('|');
    fixture.fault({ path: new RegExp(`\\.f(${stepNames(firstHeld)})$`), ranged: true, fault: { kind: 'hold', until: second }, times: Infinity });
    const late = GFS_STEPS.filter((s) => s > HELD_AFTER).map((s) => String(s).padStart(3, '0'));
    fixture.fault({ path: new RegExp(`\\.f(${late.join('|')})$`), ranged: true, fault: { kind: 'hold', until: held }, times: Infinity });
  });
  test.afterAll(async () => {
    releaseSecond();
    release();
    if (server) await stopAppServer(server);
    await fixture?.close();
  });

  test('the first real step is served and drawn, the rest arrives, and a restart resumes', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    const log = testInfo.outputPath('server.log');
    await mkdir(testInfo.outputDir, { recursive: true });
    server = await startServer(fixture.url, log);
    await page.goto(BASE);

    // The first real step: GFS replaces the demo product, with its progress in the picker.
    await expect(page.getByTestId('product-picker')).toHaveValue('gfs', { timeout: 120_000 });
    await expect(page.getByTestId('demo-badge')).toHaveCount(0);
    await expect(page.getByTestId('product-arriving')).toHaveText(/GFS \d\dZ: \d+ of 121 steps/);
    await expect(page.getByTestId('run-progress')).toBeVisible();
    // Drawn: tiles of the GFS run loaded and the map animating on them.
    await expect.poll(async () => {
      const s = await stats(page).catch(() => null);
      return s !== null && s.firstParticlesAt !== null && s.tiles.loading === 0 && s.frames > 5;
    }, { timeout: 30_000 }).toBe(true);
    // Only the first step has been let through so far.
    expect(await stepsIn(page)).toBe(1);
    await page.screenshot({ path: testInfo.outputPath('first-step.png') });

    // The rest arrives: the count grows, up to the steps let through before the restart.
    releaseSecond();
    const throughBeforeHold = GFS_STEPS.filter((s) => s <= HELD_AFTER).length;
    expect(throughBeforeHold).toBeGreaterThan(1);
    await expect.poll(() => stepsIn(page), { timeout: 120_000 }).toBe(throughBeforeHold);

    // Restart mid-run: what is on disk is neither fetched nor built again.
    await stopAppServer(server);
    fixture.clearLog();
    release();
    server = await startServer(fixture.url, log);
    await expect.poll(() => stepsIn(page), { timeout: 120_000 }).toBeGreaterThan(throughBeforeHold);
    const refetched = fixture.requests(undefined, true).filter((r) => GFS_STEPS.filter((s) => s <= HELD_AFTER).some((s) => r.path.endsWith(`.f${String(s).padStart(3, '0')}`)));
    expect(refetched).toEqual([]);
    await expect(page.getByTestId('product-picker')).toHaveValue('gfs');
    await page.screenshot({ path: testInfo.outputPath('resumed.png') });
  });
});
