/**
 * A field as one flat record with ecCodes' key names, in the order of
 * ../shared/data/expected-eccodes.json: what `npm run grib -- inventory` prints, and what the
 * fixture tests compare with ecCodes. min, max and mean are over the values present (null when
 * none is); first5 holds null for a missing value; floats print as the shortest decimal that
 * reads back as the same float32 (4943.645, not 4943.64501953125).
 */

import type { GribFieldInfo } from './message.ts';

export interface EccodesSummary {
  edition: number; centre: string; shortName: string; paramId: number; discipline: number;
  parameterCategory: number; parameterNumber: number; typeOfLevel: string; level: number;
  dataDate: number; dataTime: number; stepRange: string; gridType: string; gridDefinitionTemplateNumber: number;
  Ni: number | null; Nj: number | null; scanningMode: number | null; dataRepresentationTemplateNumber: number;
  packingType: string; bitsPerValue: number; bitmapPresent: number; numberOfValues: number; numberOfMissing: number;
  min: number | null; max: number | null; mean: number | null; first5: (number | null)[];
}

/** The shortest decimal that reads back as the same float32. */
function shortestFloat32(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

/** `values` from decodeField for `info`. */
export function eccodesSummary(info: GribFieldInfo, values: Float32Array): EccodesSummary {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let present = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    present++;
  }
  const grid = info.grid;
  // ecCodes has no Ni / Nj for grids without rows (unstructured, reduced), and no scanning mode without them.
  const hasRows = grid.Ni > 0 && grid.scanningMode >= 0;
  return {
    edition: info.edition, centre: info.centre, shortName: info.shortName, paramId: info.paramId,
    discipline: info.discipline, parameterCategory: info.parameterCategory, parameterNumber: info.parameterNumber,
    typeOfLevel: info.typeOfLevel, level: info.level, dataDate: info.dataDate, dataTime: info.dataTime,
    stepRange: info.stepRange, gridType: grid.type, gridDefinitionTemplateNumber: grid.template,
    Ni: hasRows ? grid.Ni : null, Nj: hasRows ? grid.Nj : null, scanningMode: grid.scanningMode >= 0 ? grid.scanningMode : null,
    dataRepresentationTemplateNumber: info.dataTemplate, packingType: info.packingType, bitsPerValue: info.bitsPerValue,
    bitmapPresent: info.bitmapPresent, numberOfValues: info.numberOfValues, numberOfMissing: values.length - present,
    min: present ? shortestFloat32(min) : null, max: present ? shortestFloat32(max) : null,
    mean: present ? sum / present : null,
    first5: Array.from(values.subarray(0, 5), (v) => (Number.isNaN(v) ? null : shortestFloat32(v))),
  };
}
