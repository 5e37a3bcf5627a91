/**
 * Playwright's global set-up: the small PMTiles archive the tests build (tests/pmtilesArchive.ts),
 * served for the whole run where the end-to-end server's outdoor base map points
 * (E2E_BASEMAP_PORT, ISOBAR_BASEMAP_OUTDOOR): tests/basemaps.spec.ts and the render case
 * basemap/outdoor-archive draw it, whichever worker runs them.
 */

import { E2E_BASEMAP_PORT } from '../playwright.config.ts';
import { buildVectorArchive, sampleBasemapLayers, serveBytes } from './pmtilesArchive.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const archive = await serveBytes(buildVectorArchive(sampleBasemapLayers(), 0, 6), E2E_BASEMAP_PORT);
  return () => archive.close();
}
