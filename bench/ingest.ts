/**
 * Ingest of one GFS 0.25° step with the fields the catalogue stores (issue 3 target: <= 10 s).
 *
 * The fixtures hold single 0.25° fields, not a whole step, so the step is made of real fields
 * relabelled: every one of the 75 fields of a GFS step (10 m and 100 m wind, gust, 2 m temperature,
 * dew point and humidity, MSLP, precipitation, four cloud covers, CAPE, and u, v, temperature,
 * geopotential on the 15 catalogue pressure levels) is decoded for real from a 0.25° fixture
 * message (template 5.3 gh500 for the smooth fields, the CCSDS ECMWF precipitation rate for the
 * rough ones; dew point reads both), then shaped into the variable's range (winds from the height
 * gradient). Decode, regrid, quantize, gzip, write and the point slab all run as in a real ingest.
 *
 *   npx tsx bench/ingest.ts [--prerender <z>] [--prerender-levels <z>]
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PRESSURE_LEVELS } from '../common/catalogue/overlays.ts';
import { LEVELS } from '../common/catalogue/levels.ts';
import { loadEngine } from '../server/ingest/engine.ts';
import { engineGribReader, type FieldInfo, type GribReader } from '../server/ingest/fields.ts';
import type { SourceGrid } from '../engine/regrid.ts';
import { ingestFiles } from '../server/ingest/ingest.ts';

const DATA = new URL('../../shared/data/grib2/', import.meta.url);
const SMOOTH = 'gfs0p25_gh500_20201026T00_f024_t5.3.grib2';
const ROUGH = 'ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2';

/**
 * Fills a field from the decoded fixture values: gh (the smooth message) and r (the rough one,
 * rolled onto the GFS columns). Each shape has its own loop, so that its arithmetic is inlined
 * rather than a call per value: the shaping stands in for the decoder's output, not for ingest work.
 */
type Shape = (gh: Float32Array, r: Float32Array, out: Float32Array, ni: number) => void;
/** The fixture messages a shape reads: the smooth one (gh), the rough one, or both. */
type Reads = 'smooth' | 'rough' | 'both';

interface Spec {
  identity: Pick<FieldInfo, 'discipline' | 'parameterCategory' | 'parameterNumber' | 'typeOfLevel' | 'level' | 'statisticalProcessing' | 'shortName'>;
  /** Start of the time range (accumulations). */
  start?: number;
  shape: Shape;
  reads: Reads;
}

const ghNorm = (gh: Float32Array, k: number) => (gh[k] - 5500) / 400;
const dx = (gh: Float32Array, k: number, ni: number) => (gh[k + 1 < gh.length ? k + 1 : k] - gh[k]) * 0.3 + 0 * ni;
const dy = (gh: Float32Array, k: number, ni: number) => -(gh[k + ni < gh.length ? k + ni : k] - gh[k]) * 0.3;
const eastward: Shape = (gh, _r, out, ni) => {
  for (let k = 0; k < out.length; k++) out[k] = dy(gh, k, ni);
};
const northward: Shape = (gh, _r, out, ni) => {
  for (let k = 0; k < out.length; k++) out[k] = dx(gh, k, ni);
};
/** min(cap, offset + r * scale) */
const fromRough = (offset: number, scale: number, cap: number): Shape => (_gh, r, out) => {
  for (let k = 0; k < out.length; k++) out[k] = Math.min(cap, offset + r[k] * scale);
};

function specs(): Spec[] {
  const s = (shortName: string, d: number, c: number, n: number, typeOfLevel: string, level: number, reads: Reads, shape: Shape, stat?: number, start?: number): Spec => ({
    identity: { shortName, discipline: d, parameterCategory: c, parameterNumber: n, typeOfLevel, level, statisticalProcessing: stat }, shape, reads, start,
  });
  const list: Spec[] = [
    s('10u', 0, 2, 2, 'heightAboveGround', 10, 'smooth', eastward), s('10v', 0, 2, 3, 'heightAboveGround', 10, 'smooth', northward),
    s('100u', 0, 2, 2, 'heightAboveGround', 100, 'smooth', eastward), s('100v', 0, 2, 3, 'heightAboveGround', 100, 'smooth', northward),
    s('gust', 0, 2, 22, 'surface', 0, 'smooth', (gh, _r, out, ni) => {
      for (let k = 0; k < out.length; k++) out[k] = Math.hypot(dx(gh, k, ni), dy(gh, k, ni)) * 1.4;
    }),
    s('2t', 0, 0, 0, 'heightAboveGround', 2, 'smooth', (gh, _r, out) => {
      for (let k = 0; k < out.length; k++) out[k] = 280 + 25 * ghNorm(gh, k);
    }),
    s('2d', 0, 0, 6, 'heightAboveGround', 2, 'both', (gh, r, out) => {
      for (let k = 0; k < out.length; k++) out[k] = 272 + 20 * ghNorm(gh, k) - r[k] * 100;
    }),
    s('2r', 0, 1, 1, 'heightAboveGround', 2, 'rough', fromRough(40, 30000, 100)),
    s('prmsl', 0, 3, 1, 'meanSea', 0, 'smooth', (gh, _r, out) => {
      for (let k = 0; k < out.length; k++) out[k] = 101300 + 2000 * ghNorm(gh, k);
    }),
    s('tp', 0, 1, 8, 'surface', 0, 'rough', (_gh, r, out) => {
      for (let k = 0; k < out.length; k++) out[k] = r[k] * 3600 * 6;
    }, 1, 18),
    s('tcc', 0, 6, 1, 'atmosphere', 0, 'rough', fromRough(0, 50000, 100)),
    s('lcc', 0, 6, 1, 'lowCloudLayer', 0, 'rough', fromRough(0, 40000, 100)),
    s('mcc', 0, 6, 1, 'middleCloudLayer', 0, 'rough', fromRough(0, 30000, 100)),
    s('hcc', 0, 6, 1, 'highCloudLayer', 0, 'rough', fromRough(0, 20000, 100)),
    s('cape', 0, 7, 6, 'surface', 0, 'rough', fromRough(0, 400000, Infinity)),
  ];
  for (const level of PRESSURE_LEVELS) {
    const hPa = LEVELS.find((l) => l.ident === level)!.hPa!;
    list.push(
      s('u', 0, 2, 2, 'isobaricInhPa', hPa, 'smooth', eastward), s('v', 0, 2, 3, 'isobaricInhPa', hPa, 'smooth', northward),
      s('t', 0, 0, 0, 'isobaricInhPa', hPa, 'smooth', (gh, _r, out) => {
        for (let k = 0; k < out.length; k++) out[k] = 220 + hPa / 20 + 20 * ghNorm(gh, k);
      }),
      s('gh', 0, 3, 5, 'isobaricInhPa', hPa, 'smooth', (gh, _r, out) => {
        for (let k = 0; k < out.length; k++) out[k] = gh[k] * (1 + (500 - hPa) / 600);
      }),
    );
  }
  return list;
}

/**
 * A reader whose inventory is a whole GFS step and whose decode really decodes the fixture
 * messages its field's shape reads (`grid`: the smooth message's, which every field is on).
 */
function relabellingReader(real: GribReader, smoothBytes: Uint8Array, roughBytes: Uint8Array, grid: SourceGrid): GribReader {
  const smoothInfo = real.inventory(smoothBytes)[0];
  const roughInfo = real.inventory(roughBytes)[0];
  const list = specs();
  const refTime = Date.UTC(2020, 9, 26, 0);
  return {
    inventory: () => list.map((spec, k) => ({
      ...smoothInfo, ...spec.identity, message: k, field: 0, centre: 'kwbc', refTime,
      forecastStart: spec.start ?? 24, forecastEnd: 24, productSupported: true,
    }) as FieldInfo),
    async decode(_bytes, info) {
      const spec = list[info.message];
      // As a GFS step decodes each of its fields once: one real decode per message the shape reads.
      const smooth = spec.reads !== 'rough' ? (await real.decode(smoothBytes, smoothInfo)).values : new Float32Array(0);
      const rough = spec.reads !== 'smooth' ? (await real.decode(roughBytes, roughInfo)).values : null;
      // The ECMWF grid starts at 180 W, GFS at 0: roll it half a turn onto the GFS columns.
      const { ni, nj } = grid;
      const half = ni / 2;
      const rolled = new Float32Array(rough ? ni * nj : 0);
      for (let j = 0; rough && j < nj; j++) {
        rolled.set(rough.subarray(j * ni + half, (j + 1) * ni), j * ni);
        rolled.set(rough.subarray(j * ni, j * ni + half), j * ni + half);
      }
      const values = new Float32Array(ni * nj);
      spec.shape(smooth, rolled, values, ni);
      return { values, grid };
    },
  };
}

export interface IngestBenchResult {
  fields: number;
  ms: number;
  tiles: number;
  layers: number;
  decodeMs: number;
}

export async function benchIngestStep(options: { prerender?: { surface?: number; levels?: number } } = {}): Promise<IngestBenchResult> {
  const engine = await loadEngine();
  const real = engineGribReader(engine);
  const [smoothBytes, roughBytes] = await Promise.all([readFile(new URL(SMOOTH, DATA)), readFile(new URL(ROUGH, DATA))]);
  // Decode alone, for the share of the total.
  const d0 = performance.now();
  const smoothInfo = real.inventory(new Uint8Array(smoothBytes))[0];
  for (let k = 0; k < 5; k++) await real.decode(new Uint8Array(smoothBytes), smoothInfo);
  const { grid } = await real.decode(new Uint8Array(smoothBytes), smoothInfo);
  const reader = relabellingReader(real, new Uint8Array(smoothBytes), new Uint8Array(roughBytes), grid);
  const fields = reader.inventory(new Uint8Array(0)).length;
  const decodeMs = ((performance.now() - d0) / 6) * fields;
  const dataDir = await mkdtemp(join(tmpdir(), 'isobar-bench-ingest-'));
  try {
    // The reader ignores the bytes; the ingest still reads a file.
    const step = join(dataDir, 'step.grib2');
    await writeFile(step, 'GRIB');
    // Warm-up: the engine, the codecs and V8's code paths, on two fields into a run left staged.
    const warm: GribReader = { ...reader, inventory: (bytes) => reader.inventory(bytes).slice(0, 2) };
    await ingestFiles([step], { dataDir: join(dataDir, 'warm'), product: 'gfs', reader: warm, prerender: { surface: 0, levels: 0 } });
    const started = performance.now();
    const result = await ingestFiles([step], { dataDir: join(dataDir, 'run'), product: 'gfs', reader, prerender: options.prerender });
    return { fields, ms: performance.now() - started, tiles: result.tiles, layers: result.variables.length, decodeMs };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const { values } = parseArgs({ options: { prerender: { type: 'string' }, 'prerender-levels': { type: 'string' } } });
  const prerender = values.prerender !== undefined || values['prerender-levels'] !== undefined
    ? { surface: values.prerender === undefined ? undefined : Number(values.prerender), levels: values['prerender-levels'] === undefined ? undefined : Number(values['prerender-levels']) }
    : undefined;
  const r = await benchIngestStep({ prerender });
  console.log(`GFS 0.25° step, ${r.fields} fields -> ${r.layers} layers, ${r.tiles} tiles: ${(r.ms / 1000).toFixed(2)} s (decode alone ~${(r.decodeMs / 1000).toFixed(2)} s); budget 10 s`);
}
