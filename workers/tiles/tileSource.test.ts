import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { decodeDataTile } from '../../common/tile.ts';
import type { Engine } from '../../engine/engine.ts';
import { describeWithFixtures, readFixture } from '../../engine/grib/testing.ts';
import { createEngine } from '../../engine/testing.ts';
import { LocalGribProduct } from '../local/localGrib.ts';
import { HttpTileSource, LocalTileSource, TileLoadError } from './tileSource.ts';

const REF = Date.UTC(2026, 10, 27, 0);
const VALID = Date.UTC(2026, 10, 27, 3);

describe('HTTP tile source (SPEC §7 tile route)', () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    if (req.url!.includes('/9/')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([1, 2, 3]));
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const tile = { file: 'rainAccu', level: 'surface', validTime: VALID, address: { z: 2, x: 5, y: 1 }, acRange: 24 };

  it('names a tile by its URL, with the range of an accumulation', () => {
    const source = new HttpTileSource(origin, PRODUCTS.ecmwf, REF, null);
    expect(source.key(tile)).toBe(`${origin}/tiles/v1.0/${PRODUCTS.ecmwf.directory}/2026112700/2026112703/2/5/1/rainAccu-surface.${PRODUCTS.ecmwf.fileSuffix}?acRange=24`);
    expect(source.key({ ...tile, file: 'temp', acRange: undefined })).not.toContain('acRange');
  });

  it('fetches the bytes, with the bearer token of a Premium layer and without one otherwise', async () => {
    const premium = new HttpTileSource(origin, PRODUCTS.ecmwf, REF, 'token-1');
    expect([...await premium.load(tile, new AbortController().signal)]).toEqual([1, 2, 3]);
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer token-1');
    await new HttpTileSource(origin, PRODUCTS.ecmwf, REF, null).load(tile, new AbortController().signal);
    expect(seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('reports a failed tile with its status and URL', async () => {
    const source = new HttpTileSource(origin, PRODUCTS.ecmwf, REF, null);
    const missing = { ...tile, address: { z: 2, x: 9, y: 1 } };
    await expect(source.load(missing, new AbortController().signal)).rejects.toThrow(new TileLoadError(`HTTP 404 for ${source.key(missing)}`));
  });
});

describeWithFixtures('local tile source: a GRIB file opened in the browser', () => {
  let engine: Engine;
  let local: LocalGribProduct;
  beforeAll(async () => {
    engine = await createEngine();
    local = await LocalGribProduct.open(engine, await readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2'), 'uv.grib2', '7');
  });
  afterAll(() => local.dispose());

  it('makes the tiles itself, named without any URL', async () => {
    const source = new LocalTileSource(local);
    const validTime = local.summary.timestamps[0];
    const tile = { file: 'wind', level: 'surface', validTime, address: { z: 0, x: 1, y: 0 } };
    expect(source.key(tile)).toBe('local-7:wind-surface/2019010618/0/1/0');
    const decoded = decodeDataTile(await source.load(tile));
    expect(decoded.header).toMatchObject({ west: 0, north: 90, east: 180, south: -90, channels: 2 });
  });

  it('says which field the file lacks', async () => {
    const source = new LocalTileSource(local);
    const tile = { file: 'temp', level: 'surface', validTime: local.summary.timestamps[0], address: { z: 0, x: 0, y: 0 } };
    await expect(source.load(tile)).rejects.toThrow('uv.grib2 has no temp at surface for 2019010618');
  });
});
