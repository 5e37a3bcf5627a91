/**
 * Isobar's GRIB edition 2 decoder: the public API. Runs in Node and in a browser Worker (no Node
 * APIs); the heavy unpacking runs in the engine's WASM module (engine/assembly/grib/unpack.ts).
 *
 *   const fields = inventory(bytes);                      // every field, no data decoded
 *   const values = await decodeField(engine, bytes, f);   // f32 per grid point, scanning order, NaN = missing
 *   const grid = toNorthUp(f, values);                    // regular lat/lon and Gaussian: rows north -> south
 *
 * Signatures:
 *   inventory(bytes: Uint8Array): GribFieldInfo[]                          throws GribError
 *   decodeField(engine: Engine, bytes: Uint8Array, info: GribFieldInfo): Promise<Float32Array>
 *       bytes: the file inventory() read, or the message alone (bytes.length === info.length)
 *   toNorthUp(info, values): { values, lat0, lon0, dLat, dLon, Ni, Nj, latitudes?, global }
 *       values[y * Ni + x], y = 0 north, x = 0 west; Gaussian rows at latitudes[y]
 *   eccodesSummary(info, values): the ecCodes-keyed record `npm run grib -- inventory` prints
 *
 * Units: forecastStart / forecastEnd in hours after refTime (ms UTC); level as ecCodes gives it
 * (isobaric hPa, heights m, PV in PVU); grid angles in degrees. info.grid.mappable tells whether
 * toNorthUp can lay the grid out (regular_ll, regular_gg); unsupportedReason says why not.
 *
 * Supported: sections 0-8, several messages per file and several fields per message; grid
 * templates 3.0, 3.40 (mapped), 3.1, 3.10, 3.20, 3.30, 3.101 (reported; values decode); product
 * templates 4.0, 4.1, 4.2, 4.8, 4.11, 4.12, 4.15, 4.40-4.43, 4.48 (others: parameter only); data
 * representation templates 5.0, 5.2, 5.3, 5.4, 5.40, 5.41, 5.42 (the last three through
 * engine/codecs); bit-maps 0, 254 and 255. Anything else is a GribError that names it.
 */

export { GribError } from './reader.ts';
export { inventory, type GribFieldInfo } from './message.ts';
export { gaussianLatitudes, type GribGrid, type GridType } from './grid.ts';
export { decodeField, MAX_GRIB_POINTS, type GribCodecs } from './decode.ts';
export { toNorthUp, type NorthUpField } from './north-up.ts';
export type { Packing, ComplexPacking } from './packing.ts';
export { eccodesSummary, type EccodesSummary } from './summary.ts';
