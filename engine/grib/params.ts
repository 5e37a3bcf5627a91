/**
 * A small table of GRIB2 parameters -> ecCodes shortName / paramId: the fields of the models Isobar
 * ingests (GFS, GFS-Wave, GEFS-Aerosols, ECMWF IFS and CAMS, DWD ICON). A parameter not listed is
 * 'unknown' / 0, as ecCodes reports a parameter it has no definition for.
 *
 * Matching follows ecCodes' concepts (definitions/grib2/shortName.def and
 * localConcepts/{kwbc,ecmf,edzw}/shortName.def at github.com/ecmwf/eccodes, 2.28): an entry
 * matches when all its keys equal the field's, and among the matching entries the one with the
 * most keys wins, so '2t' (temperature at 2 m above ground) beats 't' (temperature) for a 2 m
 * field. A centre's local entries (NCEP 7 kwbc, ECMWF 98 ecmf, DWD 78 edzw) match only fields from
 * that centre, as ecCodes loads localConcepts/<centre> for them alone; ECMWF's local entries
 * further need localTablesVersion 1 where ecCodes' do (ECMWF open data's tp, 0/1/193).
 */

import { DWD_CENTRE, ECMWF_CENTRE, NCEP_CENTRE } from './tables.ts';

export interface ParameterKey {
  centre: number;
  discipline: number;
  category: number;
  number: number;
  typeOfFirstFixedSurface: number;
  /** The first surface's value in its own unit (m, Pa...). */
  firstSurfaceValue: number;
  typeOfSecondFixedSurface: number;
  statisticalProcessing?: number;
  /** The first time range's length in hours when section 4 gives it in hours (Code Table 4.4 unit 1). */
  lengthInHours?: number;
  constituentType?: number;
  productTemplate: number;
  /** Section 1 octet 11. */
  localTablesVersion: number;
}

interface Conditions {
  surface?: number;
  surfaceValue?: number;
  secondSurface?: number;
  statistic?: number;
  /** lengthOfTimeRange with indicatorOfUnitForTimeRange = 1 (hours). */
  hours?: number;
  constituent?: number;
  localTablesVersion?: number;
}

type Entry = [shortName: string, paramId: number, discipline: number, category: number, number: number, conditions?: Conditions];

const HEIGHT_ABOVE_GROUND = 103;
const at = (metres: number): Conditions => ({ surface: HEIGHT_ABOVE_GROUND, surfaceValue: metres });
const SURFACE = 1;
const MISSING_SURFACE = 255;
const ACCUMULATION = 1;
const MAXIMUM = 2;
const MINIMUM = 3;
const DIFFERENCE = 4;

/** WMO parameters (any centre). */
const WMO: Entry[] = [
  ['t', 130, 0, 0, 0], ['2t', 167, 0, 0, 0, at(2)],
  ['mx2t6', 121, 0, 0, 0, { ...at(2), statistic: MAXIMUM, hours: 6 }], ['mn2t6', 122, 0, 0, 0, { ...at(2), statistic: MINIMUM, hours: 6 }], ['pt', 3, 0, 0, 2], ['tmax', 3015, 0, 0, 4],
  ['tmin', 3016, 0, 0, 5], ['2d', 168, 0, 0, 6, at(2)], ['lhtfl', 260002, 0, 0, 10], ['ishf', 231, 0, 0, 11],
  ['aptmp', 260255, 0, 0, 21],
  ['q', 133, 0, 1, 0], ['2sh', 174096, 0, 1, 0, at(2)], ['r', 157, 0, 1, 1], ['2r', 260242, 0, 1, 1, at(2)],
  ['pwat', 3054, 0, 1, 3], ['prate', 3059, 0, 1, 7], ['tp', 228228, 0, 1, 8, { statistic: 1 }],
  ['acpcp', 3063, 0, 1, 10], ['sde', 3066, 0, 1, 11], ['sdwe', 260056, 0, 1, 13], ['clwmr', 260018, 0, 1, 22],
  ['cpofp', 260035, 0, 1, 39], ['tprate', 260048, 0, 1, 52, { surface: SURFACE }],
  ['tp', 228228, 0, 1, 52, { surface: SURFACE, statistic: ACCUMULATION }],
  ['u', 131, 0, 2, 2], ['10u', 165, 0, 2, 2, at(10)], ['100u', 228246, 0, 2, 2, at(100)],
  ['v', 132, 0, 2, 3], ['10v', 166, 0, 2, 3, at(10)], ['100v', 228247, 0, 2, 3, at(100)],
  ['w', 135, 0, 2, 8], ['absv', 3041, 0, 2, 10], ['uflx', 260062, 0, 2, 17], ['vflx', 260063, 0, 2, 18],
  ['gust', 260065, 0, 2, 22],
  ['pres', 54, 0, 3, 0], ['sp', 134, 0, 3, 0, { surface: 1 }], ['trpp', 228045, 0, 3, 0, { surface: 7 }],
  ['prmsl', 260074, 0, 3, 1], ['icaht', 3005, 0, 3, 3], ['gh', 156, 0, 3, 5], ['orog', 228002, 0, 3, 5, { surface: 1 }],
  ['gpa', 3027, 0, 3, 9],
  ['tcc', 228164, 0, 6, 1], ['cwat', 260102, 0, 6, 6],
  ['cape', 59, 0, 7, 6], ['cin', 228001, 0, 7, 7], ['hlcy', 260125, 0, 7, 8],
  ['tozne', 260130, 0, 14, 0],
  ['al', 260509, 0, 19, 1],
  ['tc_mdens', 401000, 0, 20, 1], ['mass_mixrat', 402000, 0, 20, 2],
  ['go3', 210203, 0, 20, 2, { constituent: 0 }], ['co', 210123, 0, 20, 2, { constituent: 4 }],
  ['lsm', 172, 2, 0, 0], ['st', 228139, 2, 0, 2], ['watr', 260181, 2, 0, 5], ['hindex', 260256, 2, 4, 2],
  ['swh', 140229, 10, 0, 3], ['ci', 31, 10, 2, 0],
];

/** NCEP local parameters (centre 7). */
const NCEP: Entry[] = [
  ['crain', 260029, 0, 1, 192], ['cfrzr', 260030, 0, 1, 193], ['cicep', 260031, 0, 1, 194], ['csnow', 260032, 0, 1, 195],
  ['cprat', 260033, 0, 1, 196], ['pevpr', 260037, 0, 1, 200],
  ['vwsh', 260068, 0, 2, 192], ['ustm', 260070, 0, 2, 194], ['vstm', 260071, 0, 2, 195], ['VRATE', 7001353, 0, 2, 224],
  ['mslet', 260317, 0, 3, 192], ['5wavh', 260080, 0, 3, 193], ['u-gwd', 260081, 0, 3, 194], ['v-gwd', 260082, 0, 3, 195],
  ['5wava', 260084, 0, 3, 197], ['plpl', 260325, 0, 3, 200],
  ['dswrf', 260087, 0, 4, 192], ['uswrf', 260088, 0, 4, 193], ['dlwrf', 260097, 0, 5, 192], ['ulwrf', 260098, 0, 5, 193],
  ['cwork', 260111, 0, 6, 193], ['SUNSD', 7001292, 0, 6, 201],
  ['lftx', 260127, 0, 7, 192], ['4lftx', 260128, 0, 7, 193],
  ['pmtc', 260374, 0, 13, 192], ['pmtf', 260375, 0, 13, 193], ['o3mr', 260131, 0, 14, 192],
  ['refd', 260389, 0, 16, 195], ['refc', 260390, 0, 16, 196], ['ltng', 260391, 0, 17, 192],
  ['soilw', 260185, 2, 0, 192], ['gflux', 260186, 2, 0, 193], ['cnwat', 260189, 2, 0, 196], ['wilt', 260442, 2, 0, 201],
  ['fldcp', 260483, 2, 3, 203],
  // NCEP names any precipitation 0/1/8 tp, whatever its statistic.
  ['tp', 228228, 0, 1, 8],
];

const ECMWF_LOCAL_TABLES = 1;

/** ECMWF local parameters (centre 98). */
const ECMWF: Entry[] = [
  ['tp', 228, 0, 1, 193, { localTablesVersion: ECMWF_LOCAL_TABLES, surface: SURFACE, secondSurface: MISSING_SURFACE, statistic: ACCUMULATION }],
  ['lsp', 142, 0, 1, 196, { localTablesVersion: ECMWF_LOCAL_TABLES, surface: SURFACE, statistic: ACCUMULATION }],
  ['sf', 144, 0, 1, 198, { localTablesVersion: ECMWF_LOCAL_TABLES, surface: SURFACE, statistic: ACCUMULATION }],
  ['ro', 205, 2, 0, 201, { localTablesVersion: ECMWF_LOCAL_TABLES, statistic: ACCUMULATION }],
  ['mx2t3', 228026, 0, 0, 0, { ...at(2), statistic: MAXIMUM, hours: 3 }],
  ['mn2t3', 228027, 0, 0, 0, { ...at(2), statistic: MINIMUM, hours: 3 }],
];

/** DWD local parameters (centre 78): ICON's precipitation names where the WMO ones do not apply. */
const DWD: Entry[] = [
  ['TOT_PREC', 500041, 0, 1, 52, { statistic: ACCUMULATION }], ['TOT_PREC_D', 500401, 0, 1, 52, { statistic: DIFFERENCE }],
  ['TOT_PR', 503303, 0, 1, 52],
];

function index(entries: Entry[]): Map<number, Entry[]> {
  const map = new Map<number, Entry[]>();
  for (const entry of entries) {
    const key = (entry[2] << 16) | (entry[3] << 8) | entry[4];
    const list = map.get(key) ?? [];
    list.push(entry);
    map.set(key, list);
  }
  return map;
}

const WMO_INDEX = index(WMO);
const LOCAL_INDEX = new Map([[NCEP_CENTRE, index(NCEP)], [ECMWF_CENTRE, index(ECMWF)], [DWD_CENTRE, index(DWD)]]);

function score(conditions: Conditions | undefined, key: ParameterKey): number {
  if (!conditions) return 0;
  let n = 0;
  if (conditions.surface !== undefined) {
    if (key.typeOfFirstFixedSurface !== conditions.surface) return -1;
    n++;
  }
  if (conditions.surfaceValue !== undefined) {
    if (key.firstSurfaceValue !== conditions.surfaceValue) return -1;
    n++;
  }
  if (conditions.secondSurface !== undefined) {
    if (key.typeOfSecondFixedSurface !== conditions.secondSurface) return -1;
    n++;
  }
  if (conditions.statistic !== undefined) {
    if (key.statisticalProcessing !== conditions.statistic) return -1;
    n++;
  }
  if (conditions.hours !== undefined) {
    // ecCodes' entries name three keys here: unit (hours), statistic's length and the length itself.
    if (key.lengthInHours !== conditions.hours) return -1;
    n += 2;
  }
  if (conditions.localTablesVersion !== undefined) {
    if (key.localTablesVersion !== conditions.localTablesVersion) return -1;
    n++;
  }
  if (conditions.constituent !== undefined) {
    if (key.constituentType !== conditions.constituent) return -1;
    n++;
  }
  return n;
}

/** ecCodes shortName and paramId of a field, or 'unknown' / 0. */
export function parameterName(key: ParameterKey): { shortName: string; paramId: number } {
  const code = (key.discipline << 16) | (key.category << 8) | key.number;
  const candidates = [...(LOCAL_INDEX.get(key.centre)?.get(code) ?? []), ...(WMO_INDEX.get(code) ?? [])];
  let best: Entry | undefined;
  let bestScore = -1;
  for (const entry of candidates) {
    const s = score(entry[5], key);
    if (s > bestScore) {
      best = entry;
      bestScore = s;
    }
  }
  return best ? { shortName: best[0], paramId: best[1] } : { shortName: 'unknown', paramId: 0 };
}
