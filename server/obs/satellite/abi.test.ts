// There is no GOES ABI fixture in ../shared/data: these tests write ABI L2 CMIP / MCMIP files
// themselves with h5wasm, laid out as the GOES-R PUG describes them (testing.ts writeAbiFile).
import { describe, expect, it } from 'vitest';
import { gridLocator } from '../radar/field.ts';
import { AbiError, readAbiCmi, readAbiCmiBands } from './abi.ts';
import { writeAbiFile } from './testing.ts';

const START = new Date(Date.UTC(2025, 5, 1, 18, 0, 21, 700));
const ir = (lon: number, lat: number) => 300 - 0.8 * Math.abs(lat) - 0.1 * Math.abs(lon + 75);
const vis = (_lon: number, lat: number) => 0.1 + 0.6 * Math.cos((lat * Math.PI) / 180) ** 2;

describe('GOES-R ABI L2 Cloud and Moisture Imagery reader', () => {
  it('reads a CMIP band 13 file: projection, grid, time, brightness temperatures where they were written', async () => {
    const image = await readAbiCmi(await writeAbiFile({ platform: 'G19', lon0: -75, start: START, bands: [{ band: 13, wavelengthUm: 10.33, field: ir }] }));
    expect(image).toMatchObject({ platform: 'G19', product: 'ABI-L2-CMIP C13', time: START.getTime(), quantity: 'brightnessTemperature' });
    expect(image.wavelengthUm).toBeCloseTo(10.33, 4);
    expect(image.grid.projection.params).toMatchObject({ lon0: -75, h: 35786023, sweep: 'x' });
    const at = gridLocator(image.grid);
    const cr = new Float64Array(2);
    let compared = 0;
    for (const [lon, lat] of [[-75, 0], [-90, 30], [-50, -40], [-100, 45]]) {
      at(lon, lat, cr);
      const c = Math.round(cr[0]);
      const r = Math.round(cr[1]);
      const v = image.values[r * image.grid.width + c];
      // One coarse cell (about 45 km at the sub-satellite point) and the 0.04 K packing apart.
      expect(Math.abs(v - ir(lon, lat))).toBeLessThan(0.8 * 0.5 + 2);
      compared++;
    }
    expect(compared).toBe(4);
    // Space around the disk is fill.
    expect(image.values[0]).toBeNaN();
  });

  it('reads the named band of an MCMIP file, reflectance for the visible band', async () => {
    const bytes = await writeAbiFile({ platform: 'G18', lon0: -137, start: START, bands: [{ band: 2, wavelengthUm: 0.64, field: vis }, { band: 13, wavelengthUm: 10.33, field: ir }] });
    const red = await readAbiCmi(bytes, 2);
    expect(red).toMatchObject({ product: 'ABI-L2-MCMIP C02', quantity: 'reflectance', platform: 'G18' });
    const centre = red.values[60 * red.grid.width + 60];
    expect(centre).toBeCloseTo(vis(-137, 0), 2);
    const [both13, both2] = await readAbiCmiBands(bytes, [13, 2]);
    expect(both13.product).toBe('ABI-L2-MCMIP C13');
    expect(both2.values).toEqual(red.values);
    await expect(readAbiCmi(bytes)).rejects.toThrow(/no band named/);
    await expect(readAbiCmi(bytes, 7)).rejects.toThrow(AbiError);
  });

  it('refuses truncated and foreign files with AbiError', async () => {
    const bytes = await writeAbiFile({ platform: 'G19', lon0: -75, start: START, bands: [{ band: 13, wavelengthUm: 10.33, field: ir }] });
    await expect(readAbiCmi(bytes.subarray(0, Math.floor(bytes.length / 2)))).rejects.toThrow(AbiError);
    await expect(readAbiCmi(new TextEncoder().encode('CDF\x01 classic netCDF is not ABI'))).rejects.toThrow(AbiError);
  });
});
