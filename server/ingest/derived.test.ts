/**
 * The derived fields of server/ingest/derived on a real GFS 2.5° file (+120 h of 2011-01-10 12Z):
 * each stored value equals the formula applied to the engine's own decode of its inputs at the
 * grid point (within the quantization of the stored variable).
 */

import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { ingestFiles, type IngestResult } from './ingest.ts';
import { runDir } from './layout.ts';
import { PointStoreReader } from './points.ts';
import { decodeOneGrib, describeWithFixtures, field, gribValueAt, SAMPLE, tempDir, tolerance } from './testing.ts';
import { stullWetBulbC } from './derived/wetBulb.ts';
import { pvOutputPercent } from './derived/solarPower.ts';
import { rompsProxy } from './derived/thunder.ts';
import { fogValue, fslVisibility } from './derived/fog.ts';
import { tenHourFuelMoisture } from './derived/deadFuelMoisture.ts';
import { dewPointFrom } from './derive.ts';

describeWithFixtures('ingestFiles: derived fields of GFS 2.5° +120 h, 2011-01-10 12Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.gfs2p5F120], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
  }, 60_000);
  afterAll(() => data?.remove());

  it('writes the derived layers, on pressure levels too', async () => {
    const dir = runDir(data.dir, 'gfs2p5-20110110', result.runId!);
    const minifest = JSON.parse(await readFile(join(dir, 'minifest.json'), 'utf8'));
    for (const file of ['wetbulbtemp', 'fog', 'dfm10h', 'thunder', 'solarpower', 'ccl']) expect(minifest.layers[file], file).toEqual(['surface']);
    for (const file of ['icing', 'turbulence']) expect(minifest.layers[file], file).toContain('500h');
    // No precipitation total over the 24 h before +120 h in this one file: no FWI.
    expect(minifest.layers.fwi).toBeUndefined();
    // Inputs only: never layers.
    for (const file of ['convRain', 'surfacePressure', 'ghi', '']) expect(minifest.layers[file]).toBeUndefined();
  });

  it('stores each derived value as its formula gives it from the decoded inputs at grid points', async () => {
    const f = SAMPLE.gfs2p5F120;
    const t2 = await decodeOneGrib(f, field('2t', 'heightAboveGround', 2), '2t');
    const r2 = await decodeOneGrib(f, field('2r', 'heightAboveGround', 2), '2r');
    const cape = await decodeOneGrib(f, field('cape', 'surface', 0), 'cape');
    const cprat = await decodeOneGrib(f, field('cprat', 'surface', 0), 'cprat');
    const dswrf = await decodeOneGrib(f, (i) => i.shortName === 'dswrf' && i.typeOfLevel === 'surface', 'dswrf');
    const reader = await PointStoreReader.open(join(runDir(data.dir, 'gfs2p5-20110110', result.runId!), 'points.bin'));
    let thundery = 0;
    let sunny = 0;
    try {
      for (let lat = -80; lat <= 80; lat += 10) {
        for (let lon = -180; lon < 180; lon += 30) {
          const v = (await reader.series(lat, lon, false))!.values;
          const t = gribValueAt(t2, lat, lon);
          const rh = gribValueAt(r2, lat, lon);
          const check = (ident: string, expected: number) => {
            if (!Number.isFinite(expected)) return;
            expect(Math.abs(v[ident][0] - expected), `${ident} at (${lat}, ${lon}): ${v[ident][0]} vs ${expected}`)
              .toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected) + 1e-3 * Math.abs(expected));
          };
          // Stull's fit has no value below -20 °C: a node next to such a node has none either (the
          // point grid's bilinear regrid reads the neighbours).
          const near = [[0, 0], [2.5, 0], [-2.5, 0], [0, 2.5], [0, -2.5]].map(([a, b]) => Math.max(-90, Math.min(90, lat + a)) === lat + a
            ? stullWetBulbC(gribValueAt(t2, lat + a, lon + b) - 273.15, gribValueAt(r2, lat + a, lon + b)) : 0);
          if (near.every(Number.isFinite)) check('wetbulbtemp', stullWetBulbC(t - 273.15, rh) + 273.15);
          check('dfm10h', tenHourFuelMoisture((t - 273.15) * 9 / 5 + 32, rh));
          const dew = dewPointFrom(Float32Array.of(t), Float32Array.of(rh))[0];
          check('fog', fogValue(fslVisibility(t, dew, rh), t - 273.15));
          const thunder = rompsProxy(gribValueAt(cape, lat, lon), gribValueAt(cprat, lat, lon) * 3600);
          check('thunder', thunder);
          const pv = pvOutputPercent(gribValueAt(dswrf, lat, lon), t - 273.15);
          check('solarpower', pv);
          if (thunder > 0.01) thundery++;
          if (pv > 10) sunny++;
        }
      }
    } finally {
      await reader.close();
    }
    expect(thundery).toBeGreaterThan(0);
    expect(sunny).toBeGreaterThan(0);
  });
});
