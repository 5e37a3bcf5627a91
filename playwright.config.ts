import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/** End-to-end tests drive Debian Chromium (no browser download) against the built app. */
const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093);
const SAMPLES_PRESENT = existsSync(new URL('../shared/data/samples/', import.meta.url));
/** server/ingest/samples.ts loads runs in product order: this one comes last. */
const LAST_SAMPLE_DIRECTORY = 'gfswave-20260819';

/**
 * tests/push.spec.ts runs a local stand-in for a browser vendor's push service on this origin; the
 * server lets it through the push endpoint check (ISOBAR_PUSH_ALLOW_ORIGINS, server/alerts/pushEndpoint.ts),
 * which refuses every other local address.
 */
export const E2E_PUSH_SERVICE_ORIGIN = `http://127.0.0.1:${Number(process.env.ISOBAR_E2E_PUSH_PORT ?? PORT + 1000)}`;

/**
 * tests/basemaps.spec.ts serves a small PMTiles archive of its own on this origin; the server is
 * configured with it as the outdoor base map (ISOBAR_BASEMAP_OUTDOOR, server/routes/basemaps.ts).
 */
export const E2E_BASEMAP_PORT = Number(process.env.ISOBAR_E2E_BASEMAP_PORT ?? PORT + 2000);
export const E2E_BASEMAP_URL = `http://127.0.0.1:${E2E_BASEMAP_PORT}/outdoor.pmtiles`;

/**
 * tests/pointTools.spec.ts serves a webcam image over HTTPS on this origin (the certificate of
 * server/webcams/testdata, which the server trusts through NODE_EXTRA_CA_CERTS); the server lets it
 * through the webcam address check (ISOBAR_WEBCAMS_ALLOW_ORIGINS, server/webcams/imageRelay.ts).
 */
export const E2E_WEBCAM_PORT = Number(process.env.ISOBAR_E2E_WEBCAM_PORT ?? PORT + 3000);
export const E2E_WEBCAM_ORIGIN = `https://127.0.0.1:${E2E_WEBCAM_PORT}`;
export const E2E_WEBCAM_CERT = fileURLToPath(new URL('server/webcams/testdata/host.crt', import.meta.url));

/** The webhook secret of the end-to-end server (not a real one). */
export const E2E_STRIPE_WEBHOOK_SECRET = 'whsec_isobar_end_to_end';

/**
 * Chromium's features turned off for tests and the bench, besides Playwright's own list: the omnibox
 * popup of each new browser window, a web page of the browser's own (chrome://omnibox-popup) that it
 * loads in a renderer of its own beside the test's page, never shown headless. A trace of one page
 * load saw that renderer's main thread busy 3.6 s while the map started; five loads in new contexts
 * took 26.8 s of CPU without it against 50.5 s with it, and 2.2-2.3 s each to the map's second frame
 * against 3.6-4.3 s.
 */
const CHROMIUM_DISABLED_FEATURES = ['PreloadTopChromeWebUI', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
  `--disable-features=${CHROMIUM_DISABLED_FEATURES.join(',')}`,
];

/**
 * The browser the tests and the bench launch: Debian's Chromium (or CHROMIUM_PATH) through
 * tests/chromium.sh, which merges every --disable-features switch into one, as Chromium keeps only
 * the last (Playwright's list, CHROMIUM_ARGS' and a spec's own).
 */
export const CHROMIUM_EXECUTABLE = fileURLToPath(new URL('tests/chromium.sh', import.meta.url));

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One spec file at a time: the run is bound by the two cores. Two workers measured no faster
  // (42 tests in 6.7 min against 154 in 23.4 min, and a login test then timed out; again on
  // 2026-11-28: 50 tests in 9.5 min against 63 in 10 with one, and the cluster spec's set-up timed out
  // beside another file).
  fullyParallel: false,
  workers: 1,
  globalSetup: './tests/globalSetup.ts',
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 720 },
    // en-GB: metric units and the 12-hour clock (SPEC §9), the same on every machine.
    locale: 'en-GB',
    timezoneId: 'UTC',
    trace: 'off',
    // Every page's frame rate is capped by tests/fixtures.ts (E2E_FRAME_CAP).
  },
  webServer: {
    // The server as server/build.ts built it (npm run build): it listens after ~1.5 s, against ~9 s under tsx.
    command: 'node dist-server/server/main.js',
    env: {
      PORT: String(PORT), HOST: '127.0.0.1', ISOBAR_DATA_DIR: process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e',
      // Accounts of the end-to-end tests live in their own database file.
      ISOBAR_DB_PATH: process.env.ISOBAR_E2E_DB_PATH ?? 'var/e2e/isobar.sqlite',
      // Stripe's signed webhooks are tested with this secret (tests/subscription.spec.ts signs with
      // the SDK's test signatures); no STRIPE_SECRET_KEY: checkout answers 503, no network is used.
      STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
      STRIPE_SECRET_KEY: '',
      ISOBAR_PUSH_ALLOW_ORIGINS: E2E_PUSH_SERVICE_ORIGIN,
      ISOBAR_WEBCAMS_ALLOW_ORIGINS: E2E_WEBCAM_ORIGIN,
      NODE_EXTRA_CA_CERTS: E2E_WEBCAM_CERT,
      // Rate limits x25 (server/auth/limits.ts): tests/alertsEdit.spec.ts sends 100 test
      // notifications for one user (5 per 15 min by default).
      ISOBAR_AUTH_RATE_LIMIT_SCALE: '25',
      // No live sources: the tests never probe the internet (there is none; server/live/config.ts).
      ISOBAR_SOURCES: 'none',
      ISOBAR_BASEMAP_OUTDOOR: E2E_BASEMAP_URL,
    },
    // With the samples there, the server is ready once it has loaded the last of them (the first
    // start ingests them, ~30 s): tests then run on a quiet machine rather than beside the ingest.
    url: `http://127.0.0.1:${PORT}/metadata/v1.0/${SAMPLES_PRESENT ? LAST_SAMPLE_DIRECTORY : 'demo'}/minifest.json`,
    reuseExistingServer: false,
    timeout: 240_000,
  },
});
