import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { dbzToMmh } from '../../../common/catalogue/metrics.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { OdimError, odimToField, readOdimCompositeBytes, readOdimCompositeFile } from './odim.ts';
import { radarFixturePath } from './testing.ts';

describeWithFixtures('ODIM_H5 composite reader', () => {
  it('reads the Belgian composite attributes and places its grid by projdef', async () => {
    const comp = await readOdimCompositeFile(radarFixturePath('odimComp'));
    expect(comp).toMatchObject({
      object: 'COMP', source: 'NOD:behel,NOD:bejab,NOD:bewid,NOD:frave', product: 'QPE2_MFB', quantity: 'ACRR',
      time: Date.UTC(2019, 5, 6, 0, 0), intervalMs: 3600_000, gain: 1, offset: 0,
    });
    expect(comp.grid).toMatchObject({ width: 700, height: 700, x0: 300000, y0: 1000000, dx: 1000, dy: 1000 });
    // The file's corner coordinates (/where LL_lon/LL_lat, UR_lon/UR_lat) must land on the grid's
    // corners through its Lambert conformal projdef (Belgian Lambert 2008, GRS80).
    const xy = new Float64Array(2);
    comp.grid.projection.forward(-0.2666973996088157, 47.41679117656605, xy);
    expect(xy[0]).toBeCloseTo(300000, 2);
    expect(xy[1]).toBeCloseTo(300000, 2);
    comp.grid.projection.forward(9.664159875778674, 53.69199685747096, xy);
    expect(xy[0]).toBeCloseTo(1000000, 2);
    expect(xy[1]).toBeCloseTo(1000000, 2);
  });

  it('gives dBZ from the hourly accumulation by the Z-R relation; NaN cells are outside the coverage', async () => {
    const comp = await readOdimCompositeFile(radarFixturePath('odimComp'));
    const field = odimToField(comp);
    let outside = 0;
    for (let i = 0; i < comp.raw.length; i++) {
      const v = comp.raw[i];
      if (Number.isNaN(v)) {
        outside++;
        expect(field.coverage[i]).toBe(0);
      } else if (v > 0 && i % 97 === 0) {
        expect(dbzToMmh(field.dbz[i])).toBeCloseTo(v, 3);
      }
    }
    expect(outside).toBe(134374);
  });

  it('refuses truncated and foreign files with OdimError', async () => {
    const bytes = new Uint8Array(await readFile(radarFixturePath('odimComp')));
    await expect(readOdimCompositeBytes(bytes.subarray(0, 4096))).rejects.toThrow(OdimError);
    await expect(readOdimCompositeBytes(new TextEncoder().encode('not hdf5'))).rejects.toThrow(OdimError);
  });
});
