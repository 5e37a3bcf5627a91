/**
 * From GRIB2 bytes to catalogue fields: the decoder behind a small interface (tests substitute
 * synthetic fields), the catalogue mapping of each field, the product a set of fields belongs to
 * and the run and step each field is.
 */

import { PRODUCTS, type Product } from '../../common/catalogue/products.ts';
import { matchGribField, type GribInterval, type VariableMatch } from '../../common/catalogue/variables.ts';
import type { Engine } from '../../engine/engine.ts';
import { decodeField, inventory, toNorthUp, type GribFieldInfo } from '../../engine/grib/index.ts';
import type { SourceGrid } from '../../engine/regrid.ts';
import { HOUR_MS } from '../../common/time.ts';

/** The part of the decoder's GribFieldInfo the ingest reads. */
export interface FieldInfo {
  message: number;
  field: number;
  centre: string;
  discipline: number;
  parameterCategory: number;
  parameterNumber: number;
  shortName: string;
  typeOfLevel: string;
  level: number;
  /** ms since 1970 UTC. */
  refTime: number;
  forecastStart: number;
  forecastEnd: number;
  statisticalProcessing?: number;
  /** Aerosol and chemistry fields (templates 4.40-4.48): constituent / aerosol type, particle sizes, wavelengths. */
  constituentType?: number;
  sizeInterval?: GribInterval;
  wavelengthInterval?: GribInterval;
  productSupported?: boolean;
  grid: {
    type: string;
    template: number;
    Ni: number;
    Nj: number;
    mappable: boolean;
    unsupportedReason?: string;
    dLon?: number;
    west?: number;
    east?: number;
    north?: number;
    south?: number;
  };
}

export interface DecodedValues {
  /** Rows north -> south, columns west -> east, NaN = missing, in the file's units. */
  values: Float32Array;
  grid: SourceGrid;
}

/** What the ingest needs of a GRIB2 decoder. */
export interface GribReader {
  /** Every field of a file; throws for bytes that are not GRIB2. */
  inventory(bytes: Uint8Array): FieldInfo[];
  decode(bytes: Uint8Array, info: FieldInfo): Promise<DecodedValues>;
}

export class IngestError extends Error {
  override name = 'IngestError';
}

/** The engine's GRIB2 decoder (engine/grib). */
export function engineGribReader(engine: Engine): GribReader {
  return {
    inventory: (bytes) => inventory(bytes),
    async decode(bytes, info) {
      const gribInfo = info as GribFieldInfo;
      const northUp = toNorthUp(gribInfo, await decodeField(engine, bytes, gribInfo));
      return { values: northUp.values, grid: sourceGridOf(info, northUp) };
    },
  };
}

/**
 * The regridder's view of a north-up field. Spacings come from the grid's corner points where the
 * file has them (a 1/6° grid's increments are rounded to micro-degrees in the file: 0.166667 x
 * 2160 is not 360), and a grid that goes round the globe within half a column is global.
 */
function sourceGridOf(
  info: Pick<FieldInfo, 'grid'>,
  field: { lat0: number; lon0: number; dLat: number; dLon: number; Ni: number; Nj: number; latitudes?: Float64Array },
): SourceGrid {
  const { Ni, Nj } = field;
  const g = info.grid;
  let dLon = g.west !== undefined && g.east !== undefined && Ni > 1 ? (g.east - g.west) / (Ni - 1) : field.dLon;
  const global = Math.abs(Ni * dLon - 360) < dLon / 2;
  if (global) dLon = 360 / Ni;
  const dLat = !field.latitudes && g.north !== undefined && g.south !== undefined && Nj > 1 ? (g.north - g.south) / (Nj - 1) : field.dLat;
  return { ni: Ni, nj: Nj, lon0: field.lon0, dLon, lat0: field.lat0, dLat, latitudes: field.latitudes, global };
}

/** Grid spacing of a field in degrees (longitude), for product matching; NaN when it has none. */
function resolutionOf(info: FieldInfo): number {
  const g = info.grid;
  if (g.west !== undefined && g.east !== undefined && g.Ni > 1) {
    const d = (g.east - g.west) / (g.Ni - 1);
    return Math.abs(g.Ni * d - 360) < d / 2 ? 360 / g.Ni : d;
  }
  return g.dLon ?? NaN;
}

export interface MatchedField {
  info: FieldInfo;
  match: VariableMatch;
  /** Index into the batch's files. */
  file: number;
}

/** Catalogue matches of a file's fields, and what was left out and why. */
export function matchFields(infos: FieldInfo[], file: number): { matched: MatchedField[]; unused: FieldInfo[] } {
  const matched: MatchedField[] = [];
  const unused: FieldInfo[] = [];
  for (const info of infos) {
    const match = info.productSupported === false ? null : matchGribField(info);
    if (match) matched.push({ info, match, file });
    else unused.push(info);
  }
  return { matched, unused };
}

function describeCentre(centre: string): string {
  return ({ kwbc: 'NCEP (kwbc)', ecmf: 'ECMWF (ecmf)', edzw: 'DWD (edzw)' } as Record<string, string>)[centre] ?? `centre ${centre}`;
}

/**
 * The catalogue product a file's catalogue fields belong to: same centre, discipline and grid
 * spacing (1 %), reference time inside a sample's dates, one of its variables where it names them
 * (an aerosol model beside the weather model of its centre). Samples come first: they are the more
 * specific. Throws an IngestError saying what the files are and what the catalogue has.
 */
export function inferProduct(matched: MatchedField[], what: string): Product {
  const first = matched[0];
  if (!first) throw new IngestError(`${what}: no field maps to a catalogue variable`);
  const grid = first.info.grid;
  if (!grid.mappable) {
    throw new IngestError(`${what}: ${first.info.shortName} is on a ${grid.type} grid (template 3.${grid.template}), which cannot be mapped to lat/lon tiles${grid.unsupportedReason ? `: ${grid.unsupportedReason}` : ''}`);
  }
  const { centre, discipline, refTime } = first.info;
  const resolution = resolutionOf(first.info);
  const candidates = Object.values(PRODUCTS).filter((p) => {
    const source = p.source;
    if (!source || !source.centres.includes(centre) || !source.disciplines.includes(discipline)) return false;
    if (!(Math.abs(resolution - source.resolution) <= 0.01 * source.resolution)) return false;
    if (source.refTimes && !(refTime >= source.refTimes[0] && refTime <= source.refTimes[1])) return false;
    if (source.variables && !matched.some((m) => source.variables!.includes(m.match.variable.ident))) return false;
    return true;
  });
  candidates.sort((a, b) => Number(!!b.source?.refTimes) - Number(!!a.source?.refTimes));
  if (candidates.length) return candidates[0];
  const sameCentre = Object.values(PRODUCTS).filter((p) => p.source?.centres.includes(centre));
  const known = sameCentre.length
    ? `; catalogue products from ${describeCentre(centre)}: ${sameCentre.map((p) => `${p.ident} (${+p.source!.resolution.toFixed(4)}°${p.source!.refTimes ? `, ${new Date(p.source!.refTimes[0]).toISOString().slice(0, 13)}Z` : ''})`).join(', ')}`
    : '';
  throw new IngestError(
    `${what}: no catalogue product takes ${describeCentre(centre)} discipline ${discipline} fields on a ${+resolution.toFixed(4)}° grid `
    + `of ${new Date(refTime).toISOString().slice(0, 13)}Z${known}. Name one with --product to load them into it`,
  );
}

/** Reference time of the run a field belongs to: its own, or for a series product the series' start. */
export function runRefTimeOf(product: Product, info: FieldInfo): number {
  if (product.source?.series) return product.source.refTimes?.[0] ?? info.refTime + info.forecastEnd * HOUR_MS;
  return info.refTime;
}

/** Forecast hour of a field within its run: the end of its time range (the step it is valid at). */
export function hourOf(runRefTime: number, info: FieldInfo): number {
  return Math.round((info.refTime + info.forecastEnd * HOUR_MS - runRefTime) / HOUR_MS);
}
