// No GOES ABI fixture exists: the scene is an MCMIP file written the PUG's way (testing.ts) from
// known fields, so every tile node can be checked against the field at its longitude/latitude.
import { describe, expect, it } from 'vitest';
import { SATELLITE_CHANNELS } from '../../../common/satellite.ts';
import { decodeDataTile } from '../../../common/tile.ts';
import { TILE_NODES, tileAt, tileBounds } from '../../../common/tiling.ts';
import { readAbiCmi } from './abi.ts';
import { composite, solarZenithDeg } from './daynight.ts';
import { packSatelliteTile, renderSatelliteTile, sceneExtents, type SatelliteScene } from './tiles.ts';
import { writeAbiFile } from './testing.ts';

const START = Date.UTC(2025, 5, 1, 12, 0);
const ir = (lon: number, lat: number) => 300 - 0.8 * Math.abs(lat) - 0.1 * Math.abs(lon + 75);
const vis = (lon: number, lat: number) => 0.15 + 0.5 * Math.cos((lat * Math.PI) / 180) ** 2 + 0.002 * (lon + 75);

async function scene(): Promise<SatelliteScene> {
  const bytes = await writeAbiFile({ platform: 'G19', lon0: -75, start: new Date(START), cells: 400, bands: [{ band: 2, wavelengthUm: 0.64, field: vis }, { band: 13, wavelengthUm: 10.33, field: ir }] });
  return { time: START, ir: await readAbiCmi(bytes, 13), visible: await readAbiCmi(bytes, 2) };
}

describe('satellite tiles', () => {
  it('puts the infrared temperature and the day/night composite of the nearest cell at the nodes', async () => {
    const s = await scene();
    const [extent] = sceneExtents(s.ir.grid);
    // GOES-East's disk reaches about 81° either side of 75° W.
    expect(extent.west).toBeLessThan(-150);
    expect(extent.east).toBeGreaterThan(0);
    expect(extent.west).toBeGreaterThan(-165);
    // 12 UTC: the terminator crosses the disk's west, so day, twilight and night are all in the tile.
    const address = tileAt(2, -110, 20);
    const channels = renderSatelliteTile(address, s)!;
    const tile = decodeDataTile(packSatelliteTile(address, channels));
    const b = tileBounds(address);
    const step = (b.east - b.west) / (TILE_NODES - 1);
    let day = 0;
    let night = 0;
    let twilight = 0;
    for (let k = 0; k < TILE_NODES * TILE_NODES; k += 53) {
      const lon = b.west + (k % TILE_NODES) * step;
      const lat = b.north - Math.floor(k / TILE_NODES) * step;
      const t = tile.channels[0][k];
      if (Number.isNaN(t)) continue;
      // One cell of this coarse grid is up to about 0.6° near the limb: the fields change by < 0.6 K, 0.01 there.
      expect(Math.abs(t - ir(lon, lat))).toBeLessThan(0.6);
      const z = solarZenithDeg(START, lon, lat);
      if (z < 80) day++;
      else if (z > 90) night++;
      else twilight++;
      expect(Math.abs(tile.channels[1][k] - composite(ir(lon, lat), vis(lon, lat), z))).toBeLessThan(0.02);
    }
    expect(day).toBeGreaterThan(10);
    expect(night).toBeGreaterThan(10);
    expect(twilight).toBeGreaterThan(2);
    expect(tile.channels.length).toBe(SATELLITE_CHANNELS.length);
  });

  it('splits a disk that crosses the antimeridian (GOES-West at 137° W) into two boxes', async () => {
    const west = await readAbiCmi(await writeAbiFile({ platform: 'G18', lon0: -137, start: new Date(START), cells: 100, bands: [{ band: 13, wavelengthUm: 10.33, field: ir }] }));
    const boxes = sceneExtents(west.grid);
    expect(boxes).toHaveLength(2);
    // The disk reaches about 81° either side: from about 142° E across 180° to about 56° W.
    expect(boxes[0].east).toBe(180);
    expect(boxes[0].west).toBeGreaterThan(130);
    expect(boxes[0].west).toBeLessThan(150);
    expect(boxes[1].west).toBe(-180);
    expect(boxes[1].east).toBeGreaterThan(-65);
    expect(boxes[1].east).toBeLessThan(-45);
  });

  it('writes no tile off the disk', async () => {
    const s = await scene();
    expect(renderSatelliteTile(tileAt(3, 100, 0), s)).toBeNull();
  });
});
