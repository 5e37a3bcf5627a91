import { expect, it } from 'vitest';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { NwcsafError, readNwcsaf } from './nwcsaf.ts';
import { SATELLITE_FIXTURE } from './testing.ts';

describeWithFixtures('NWC SAF cloud type (Meteosat, HDF5)', () => {
  it('reads the Belgian window of the SEVIRI grid: time, platform, grid, classes and palette', async () => {
    const ct = await readNwcsaf(await readFixture(SATELLITE_FIXTURE.nwcsafCt));
    expect(ct).toMatchObject({ product: 'CT', platform: 'MSG3', region: 'BEL', time: Date.UTC(2013, 3, 29, 4, 15), scale: 1, offset: 0 });
    expect(ct.grid).toMatchObject({ width: 600, height: 300 });
    // The file's GDAL geotransform gives the cell size 3000.403357 m and the full-disk edge.
    expect(ct.grid.dx).toBeCloseTo(3000.403357, 3);
    expect(ct.grid.dy).toBeCloseTo(3000.403357, 3);
    expect(ct.grid.projection.params).toMatchObject({ lon0: 0, h: 35785831, rEq: 6378169, rPol: 6356583.8, sweep: 'y' });
    // Cell (0, 0) is column 206 west and line 1656 north of the sub-satellite point (COFF, LOFF).
    expect((ct.grid.x0 + ct.grid.dx / 2) / ct.grid.dx).toBeCloseTo(-206, 6);
    expect((ct.grid.y0 - ct.grid.dy / 2) / ct.grid.dy).toBeCloseTo(1656, 6);
    expect(ct.palette).toHaveLength(21);
    expect(ct.raw.length).toBe(600 * 300);
    const classes = new Set(ct.raw);
    for (const c of classes) expect(c).toBeLessThan(21);
    expect(classes.size).toBeGreaterThan(3);
  });

  it('places the window over the Benelux: its corners through the geostationary projection', async () => {
    const { grid } = await readNwcsaf(await readFixture(SATELLITE_FIXTURE.nwcsafCt));
    const ll = new Float64Array(2);
    const scan = (x: number, y: number) => {
      grid.projection.fromScan(x / grid.projection.params.h, y / grid.projection.params.h, ll);
      return [ll[0], ll[1]];
    };
    const nw = scan(grid.x0, grid.y0);
    const se = scan(grid.x0 + grid.width * grid.dx, grid.y0 - grid.height * grid.dy);
    // Brussels (4.35° E, 50.85° N) lies inside the window (1800 x 900 km of 3 km cells).
    expect(nw[0]).toBeLessThan(4.35);
    expect(se[0]).toBeGreaterThan(4.35);
    expect(nw[1]).toBeGreaterThan(50.85);
    expect(se[1]).toBeLessThan(50.85);
    // Round trip of the corners: forward projection gives back the file's corner-cell centres.
    const xy = new Float64Array(2);
    grid.projection.forward(nw[0], nw[1], xy);
    expect(xy[0]).toBeCloseTo(grid.x0, 3);
    expect(xy[1]).toBeCloseTo(grid.y0, 3);
  });

  it('refuses truncated and foreign files with NwcsafError', async () => {
    const bytes = await readFixture(SATELLITE_FIXTURE.nwcsafCt);
    await expect(readNwcsaf(bytes.subarray(0, 20_000))).rejects.toThrow(NwcsafError);
    await expect(readNwcsaf(new TextEncoder().encode('not hdf5'))).rejects.toThrow(NwcsafError);
  });
});
