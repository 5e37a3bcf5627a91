/**
 * The model's terrain height in the headers of GET /forecast/point/{product}/v2.9/{lat}/{lon} and
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}: for a run ingested from the real GFS 2.5°
 * analysis it equals the GRIB's orography at its grid points (bilinear between them); the demo
 * product has no orography and says none.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ingestFiles } from '../ingest/ingest.ts';
import { decodeOneGrib, describeWithFixtures, field, gribValueAt, SAMPLE, tempDir, type GribField } from '../ingest/testing.ts';

const NOW = Date.UTC(2025, 10, 26, 7, 30);
const PRODUCT = 'gfs2p5-20170322';

interface Header { product: string; modelElevation?: number; demo?: boolean }

describe('forecast headers: the demo product', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null });
  });
  afterAll(() => app.close());

  it('has no model elevation: the demo model has no orography, and none is made up', async () => {
    for (const url of ['/forecast/point/demo/v2.9/27.988/86.925', '/forecast/meteogram/demo/v1.2/27.988/86.925']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      const header = response.json().header as Header;
      expect(header.demo).toBe(true);
      expect('modelElevation' in header).toBe(false);
    }
  });
});

describeWithFixtures('forecast headers: GFS 2.5° analysis, 2017-03-22 00Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;
  let orog: GribField;

  beforeAll(async () => {
    data = await tempDir('isobar-forecast-test-');
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    orog = await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('orog', 'surface', 0), 'orog');
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: data.dir });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  }, 60_000);

  const header = async (url: string): Promise<Header> => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(200);
    return response.json().header as Header;
  };

  it('carries the orography at grid points in whole metres, in the point forecast and the meteogram alike', async () => {
    for (const [lat, lon] of [[32.5, 90], [-15, -70], [40, -105], [0, -140]]) {
      const expected = gribValueAt(orog, lat, lon);
      for (const url of [`/forecast/point/${PRODUCT}/v2.9/${lat}/${lon}`, `/forecast/meteogram/${PRODUCT}/v1.2/${lat}/${lon}`]) {
        const { modelElevation } = await header(url);
        expect(Number.isInteger(modelElevation), url).toBe(true);
        // Whole metres of a value stored in quarter metres.
        expect(Math.abs(modelElevation! - expected), `${url}: ${modelElevation} vs ${expected}`).toBeLessThanOrEqual(0.5 + 0.125 + 1e-3);
      }
    }
    expect((await header(`/forecast/point/${PRODUCT}/v2.9/32.5/90`)).modelElevation).toBeGreaterThan(4000);
    expect(Math.abs((await header(`/forecast/point/${PRODUCT}/v2.9/0/-140`)).modelElevation!)).toBeLessThan(100);
  });

  it('is bilinear between grid points, as the values are; the nearest node with interpolate=false', async () => {
    const corners = [[32.5, 90], [32.5, 92.5], [30, 90], [30, 92.5]].map(([lat, lon]) => gribValueAt(orog, lat, lon));
    const middle = (await header(`/forecast/point/${PRODUCT}/v2.9/31.25/91.25`)).modelElevation!;
    expect(Math.abs(middle - corners.reduce((a, b) => a + b) / 4)).toBeLessThanOrEqual(1);
    const nearest = (await header(`/forecast/point/${PRODUCT}/v2.9/32.4/90.1?interpolate=false`)).modelElevation!;
    expect(Math.abs(nearest - corners[0])).toBeLessThanOrEqual(1);
  });
});
