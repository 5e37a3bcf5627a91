/**
 * The few WMO / ecCodes code tables the GRIB2 inventory names things with: centre abbreviations
 * (Common Code Table C-11), typeOfLevel names (Code Table 4.5 as ecCodes names it), units of time
 * (Code Table 4.4). Parameter names live in params.ts.
 *
 * Sources: ecCodes definitions (github.com/ecmwf/eccodes, Apache-2.0): definitions/common/c-11.table,
 * definitions/grib2/typeOfLevelConcept.def, definitions/grib2/localConcepts/kwbc/typeOfLevelConcept.def,
 * definitions/grib2/tables/4.4.table.
 */

/** C-11 centres that ecCodes names by an ICAO-like abbreviation; the others print as their number. */
const CENTRE_ABBREVIATIONS: Record<number, string> = {
  1: 'ammc', 4: 'rums', 7: 'kwbc', 24: 'fapr', 28: 'vabb', 29: 'dems', 34: 'rjtd', 38: 'babj', 40: 'rksl',
  41: 'sabm', 46: 'sbsj', 54: 'cwao', 58: 'fnmo', 69: 'nzkl', 74: 'egrr', 78: 'edzw', 80: 'cnmc', 82: 'eswi',
  84: 'lfpw', 85: 'lfpw', 86: 'efkl', 88: 'enmi', 94: 'ekmi', 98: 'ecmf', 195: 'wiix', 214: 'lemm', 215: 'lssw',
  218: 'habp', 224: 'lowm', 227: 'ebum', 233: 'eidb', 235: 'ingv', 239: 'crfc', 244: 'vuwien', 245: 'knmi',
  246: 'ifmk', 247: 'hadc', 250: 'cosmo', 252: 'mpim', 254: 'eums', 255: 'consensus',
};

/** Centre code -> ecCodes `centre` string ('kwbc', 'ecmf', 'edzw', or the number as text). */
export function centreName(code: number): string {
  return CENTRE_ABBREVIATIONS[code] ?? String(code);
}

export const NCEP_CENTRE = 7;
export const ECMWF_CENTRE = 98;
export const DWD_CENTRE = 78;

/** Code Table 4.5 surfaces that stand alone (typeOfSecondFixedSurface = 255). */
const SINGLE_SURFACES: Record<number, string> = {
  1: 'surface', 2: 'cloudBase', 3: 'cloudTop', 4: 'isothermZero', 5: 'adiabaticCondensation', 6: 'maxWind',
  7: 'tropopause', 8: 'nominalTop', 9: 'seaBottom', 10: 'atmosphere', 11: 'cumulonimbusBase',
  12: 'cumulonimbusTop', 14: 'freeConvection', 15: 'convectiveCondensation', 16: 'neutralBuoyancy',
  17: 'mostUnstableParcel', 18: 'mixedLayerParcel', 20: 'isothermal', 101: 'meanSea', 102: 'heightAboveSea',
  103: 'heightAboveGround', 104: 'sigma', 105: 'hybrid', 106: 'depthBelowLand', 107: 'theta',
  108: 'pressureFromGround', 109: 'potentialVorticity', 111: 'eta', 114: 'snow', 117: 'mixedLayerDepthGeneric',
  118: 'hybridHeight', 119: 'hybridPressure', 151: 'soil', 152: 'seaIce', 160: 'depthBelowSea', 162: 'lakeBottom',
  166: 'mixingLayer', 168: 'oceanModel', 169: 'mixedLayerDepthByDensity', 170: 'mixedLayerDepthByTemperature',
  171: 'mixedLayerDepthByDiffusivity', 177: 'indefiniteSoilDepth',
};

/** Code Table 4.5 layers between two surfaces of the same type. */
const SAME_TYPE_LAYERS: Record<number, string> = {
  100: 'isobaricLayer', 102: 'heightAboveSeaLayer', 103: 'heightAboveGroundLayer', 104: 'sigmaLayer',
  105: 'hybridLayer', 106: 'depthBelowLandLayer', 107: 'thetaLayer', 108: 'pressureFromGroundLayer',
  114: 'snowLayer', 151: 'soilLayer', 152: 'seaIceLayer', 160: 'depthBelowSeaLayer', 168: 'oceanModelLayer',
};

/** NCEP's local surfaces (192-254), whatever the second surface: ecCodes localConcepts/kwbc. */
const NCEP_SURFACES: Record<number, string> = {
  200: 'atmosphereSingleLayer', 201: 'oceanSingleLayer', 204: 'highestTroposphericFreezing',
  206: 'gridScaleCloudBottom', 207: 'gridScaleCloudTop', 209: 'boundaryLayerCloudBottom',
  210: 'boundaryLayerCloudTop', 211: 'boundaryLayerCloudLayer', 212: 'lowCloudBottom', 213: 'lowCloudTop',
  214: 'lowCloudLayer', 215: 'cloudCeiling', 220: 'planetaryBoundaryLayer', 221: 'layerBetween2Hybrids',
  222: 'middleCloudBottom', 223: 'middleCloudTop', 224: 'middleCloudLayer', 232: 'highCloudBottom',
  233: 'highCloudTop', 234: 'highCloudLayer', 235: 'oceanIsotherm', 240: 'oceanMixedLayer',
  241: 'orderedSequenceData', 242: 'convectiveCloudBottom', 243: 'convectiveCloudTop', 244: 'convectiveCloudLayer',
  245: 'lowestLevelWetBulb0', 247: 'equilibrium', 248: 'shallowConvectiveCloudBottom',
  249: 'shallowConvectiveCloudTop', 251: 'deepConvectiveCloudBottom', 252: 'deepConvectiveCloudTop',
};

export const MISSING_U8 = 255;
export const MISSING_U32 = 0xffffffff;

export interface FixedSurface {
  /** Code Table 4.5; 255 = missing. */
  type: number;
  /** The surface's value in the unit of Code Table 4.5 (Pa, m, K...): scaledValue / 10^scaleFactor; NaN if missing. */
  value: number;
}

/** A surface value as ecCodes' g2level gives it: isobaric pressure in hPa (Pa under 1 hPa), PV in PVU, others as coded. */
function levelValue(surface: FixedSurface, pressureInPa: boolean): number {
  if (Number.isNaN(surface.value)) return 0;
  if (surface.type === 100 && !pressureInPa) return surface.value / 100;
  // Potential vorticity surfaces are coded in K m2 kg-1 s-1; ecCodes levels count PV units (1e-6).
  if (surface.type === 109) return surface.value * 1e6;
  return surface.value;
}

/**
 * ecCodes' typeOfLevel and level (grib2 template.4.horizontal.def: level = the first surface's
 * g2level rounded to a whole number, the top of a layer). Levels of pressure surfaces are in hPa,
 * except an isobaric surface under 1 hPa, which ecCodes reports as 'isobaricInPa' in Pa.
 */
export function levelOf(centre: number, first: FixedSurface, second: FixedSurface): {
  typeOfLevel: string; level: number; bottomLevel?: number;
} {
  const pressureInPa = first.type === 100 && second.type === MISSING_U8 && first.value < 100;
  let name: string | undefined;
  if (centre === NCEP_CENTRE && first.type >= 192 && first.type < 255) name = NCEP_SURFACES[first.type];
  else if (second.type === MISSING_U8) name = first.type === 100 ? (pressureInPa ? 'isobaricInPa' : 'isobaricInhPa') : SINGLE_SURFACES[first.type];
  else if (second.type === first.type) name = SAME_TYPE_LAYERS[first.type];
  else if (first.type === 1 && second.type === 8) name = 'entireAtmosphere';
  else if (first.type === 1 && second.type === 9) name = 'entireOcean';
  else if (first.type === 160 && second.type === 9) name = 'oceanSurfaceToBottom';
  const level = Math.round(levelValue(first, pressureInPa));
  if (second.type === MISSING_U8) return { typeOfLevel: name ?? 'unknown', level };
  return { typeOfLevel: name ?? 'unknown', level, bottomLevel: Math.round(levelValue(second, false)) };
}

/** Code Table 4.4 units of time, in hours (undefined: not a fixed length, e.g. month). */
const TIME_UNIT_HOURS: Record<number, number> = {
  0: 1 / 60, 1: 1, 2: 24, 10: 3, 11: 6, 12: 12, 13: 1 / 3600,
};

/** Hours in `count` units of Code Table 4.4 `unit`; undefined when the unit has no fixed length. */
export function timeInHours(count: number, unit: number): number | undefined {
  const hours = TIME_UNIT_HOURS[unit];
  return hours === undefined ? undefined : count * hours;
}
