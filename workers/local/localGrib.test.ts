import { beforeAll, expect, it } from 'vitest';
import { overlayByIdent } from '../../common/catalogue/overlays.ts';
import type { Engine } from '../../engine/engine.ts';
import { describeWithFixtures, readFixture } from '../../engine/grib/testing.ts';
import { createEngine } from '../../engine/testing.ts';
import { LocalGribProduct } from './localGrib.ts';

describeWithFixtures('a GRIB file opened in the browser has only its own layers (issue 12 §3 item 9)', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });

  it('a rain-only file shows rain without wind particles: it has no wind tiles to give them', async () => {
    const bytes = await readFixture('grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2');
    const local = await LocalGribProduct.open(engine, bytes, 'tprate.grib2', '1');
    expect(local.summary.overlays).toEqual(['rain']);
    expect(local.particleLayer(overlayByIdent('rain')!)).toBeUndefined();
    local.dispose();
  });

  it('a file with 10 m wind keeps the particles of its overlays', async () => {
    const bytes = await readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2');
    const local = await LocalGribProduct.open(engine, bytes, 'uv.grib2', '2');
    expect(local.summary.overlays).toContain('wind');
    expect(local.particleLayer(overlayByIdent('wind')!)?.file).toBe('wind');
    local.dispose();
  });
});
