import { describe, expect, it } from 'vitest';
import { geos, geosFromProjDef, GeosError } from './geos.ts';

/** GOES-16 (GOES-East) fixed grid as the PUG's example states it (vol. 3 §4.2.8: GRS80 radii, H = 42164160 m). */
const GOES16 = geos({ lon0: -75, h: 42164160 - 6378137, rEq: 6378137, rPol: 6356752.31414, sweep: 'x' });

describe('geostationary projection', () => {
  it('matches the GOES-R PUG worked example, scan angles to latitude/longitude (vol. 3 §4.2.8.1)', () => {
    const out = new Float64Array(2);
    GOES16.fromScan(-0.024052, 0.095340, out);
    expect(out[1]).toBeCloseTo(33.846162, 5);
    expect(out[0]).toBeCloseTo(-84.690932, 5);
  });

  it('matches the GOES-R PUG worked example, latitude/longitude to scan angles (vol. 3 §4.2.8.2)', () => {
    const out = new Float64Array(2);
    GOES16.toScan(-84.690932, 33.846162, out);
    expect(out[0]).toBeCloseTo(-0.024052, 6);
    expect(out[1]).toBeCloseTo(0.095340, 6);
  });

  it('inverts itself for either sweep, and the sweeps differ off the axes', () => {
    const y = geosFromProjDef('+proj=geos +a=6378169.0 +b=6356583.8 +lon_0=0.0 +h=35785831.0');
    const x = geos({ ...y.params, sweep: 'x' });
    const scan = new Float64Array(2);
    const back = new Float64Array(2);
    for (const [lon, lat] of [[4.35, 50.85], [-40, -60], [60, 10], [0, 0], [-70, 5]]) {
      for (const p of [x, y]) {
        p.toScan(lon, lat, scan);
        p.fromScan(scan[0], scan[1], back);
        expect(back[0]).toBeCloseTo(lon, 8);
        expect(back[1]).toBeCloseTo(lat, 8);
      }
    }
    const sx = new Float64Array(2);
    const sy = new Float64Array(2);
    x.toScan(40, 40, sx);
    y.toScan(40, 40, sy);
    expect(Math.abs(sx[0] - sy[0])).toBeGreaterThan(1e-4);
  });

  it('sees nothing beyond the limb', () => {
    const out = new Float64Array(2);
    GOES16.toScan(105, 0, out);
    expect(out[0]).toBeNaN();
    GOES16.fromScan(0.2, 0.2, out); // beyond the Earth's apparent radius of about 0.151 rad
    expect(out[1]).toBeNaN();
  });

  it('refuses projection definitions it cannot use', () => {
    expect(() => geosFromProjDef('+proj=lcc +a=1')).toThrow(GeosError);
    expect(() => geosFromProjDef('+proj=geos +a=6378169.0 +lon_0=0')).toThrow(/lacks \+h/);
  });
});
