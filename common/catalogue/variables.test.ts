import { describe, expect, it } from 'vitest';
import { METRICS } from './metrics.ts';
import { RENDER_LAYERS } from './overlays.ts';
import { FILE_VARIABLES, GRIB_RULES, STATIC_VARIABLES, VARIABLES, matchGribField, type GribIdentity } from './variables.ts';

const id = (centre: string, d: number, c: number, n: number, typeOfLevel: string, level: number, stat?: number): GribIdentity => ({
  centre, discipline: d, parameterCategory: c, parameterNumber: n, typeOfLevel, level, statisticalProcessing: stat,
});

const MISSING = { type: 255, first: NaN, second: NaN };
/** A template 4.48 field: aerosol type, particles below `size` m (Code Table 4.91 type 0), wavelengths [from, to] m (type 7). */
const aerosol = (identity: GribIdentity, type: number, size?: number, wavelengths?: [number, number]): GribIdentity => ({
  ...identity,
  constituentType: type,
  sizeInterval: size === undefined ? MISSING : { type: 0, first: size, second: 0 },
  wavelengthInterval: wavelengths ? { type: 7, first: wavelengths[0], second: wavelengths[1] } : MISSING,
});
const TOTAL = 62000;
const DUST = 62001;
// The limits as GEFS writes them: scaled integers over powers of ten.
const PM25 = 25 / 1e7;
const PM10 = 10 / 1e6;
const AOD_SIZE = 20 / 1e6;
const NM550: [number, number] = [545 / 1e9, 565 / 1e9];

describe('soil layers (NCEP SOILW, depthBelowLandLayer)', () => {
  // ecCodes gives level 0 to the 0-10, 10-40 and 40-100 cm layers alike (whole metres): the fixed surfaces' values tell them.
  const soilw = (top: number, bottom: number): GribIdentity => ({
    ...id('kwbc', 2, 0, 192, 'depthBelowLandLayer', Math.round(top)), firstSurfaceValue: top, secondSurfaceValue: bottom,
  });
  it.each([
    [0, 0.1, 'soilw_0_10'], [0.1, 0.4, 'soilw_10_40'], [0.4, 1, 'soilw_40_100'], [1, 2, null], [0.1, 0.3, null],
  ])('%s-%s m is %s', (top, bottom, variable) => {
    expect(matchGribField(soilw(top, bottom))?.variable.ident ?? null).toBe(variable);
  });
  it('values written as scaled integers match (10 / 10^2 m)', () => {
    expect(matchGribField(soilw(10 / 1e2, 40 / 1e2))?.variable.ident).toBe('soilw_10_40');
  });
  it('a field without its surfaces\' values is no soil layer', () => {
    expect(matchGribField(id('kwbc', 2, 0, 192, 'depthBelowLandLayer', 0))).toBeNull();
  });
});

describe('catalogue variables', () => {
  it('land in render-layer files with matching channel counts, levels and metrics', () => {
    for (const v of Object.values(VARIABLES)) {
      if (v.static || v.input) continue;
      const layer = Object.values(RENDER_LAYERS).find((l) => l.file === v.file);
      expect(layer, v.ident).toBeDefined();
      expect(layer!.channels, v.ident).toBe(v.channels);
      expect(METRICS[v.metric], v.ident).toBeDefined();
      expect(layer!.metric.base, v.ident).toBe(METRICS[v.metric].base);
      for (const level of v.levels) expect(layer!.levels, `${v.ident} ${level}`).toContain(level);
      expect(v.quantization.scale).toBeGreaterThan(0);
    }
    expect(FILE_VARIABLES.wind.map((v) => v.ident)).toEqual(['wind_u', 'wind_v']);
    expect(FILE_VARIABLES.temp.map((v) => v.ident)).toEqual(['temp']);
  });

  it('run-constant variables are surface values kept in no tile file and in no step series', () => {
    expect(STATIC_VARIABLES.map((v) => v.ident)).toEqual(['elevation']);
    for (const v of STATIC_VARIABLES) {
      expect(v.levels).toEqual(['surface']);
      expect(v.point).toBe(false);
      expect(METRICS[v.metric].base).toBe('m');
      expect(Object.values(FILE_VARIABLES).flat()).not.toContain(v);
    }
  });

  it('every rule names a variable and a level it has', () => {
    for (const rule of GRIB_RULES) {
      expect(VARIABLES[rule.variable], rule.note).toBeDefined();
      if (rule.target !== 'pressure') expect(VARIABLES[rule.variable].levels, rule.note).toContain(rule.target);
    }
  });
});

describe('matchGribField (WMO 4.2 identities as NCEP, ECMWF and DWD send them)', () => {
  it.each<[string, GribIdentity, string | null, string?, number?, string?]>([
    // [what, identity, variable, level, factor, kind]
    ['GFS 10 m u', id('kwbc', 0, 2, 2, 'heightAboveGround', 10), 'wind_u', 'surface', 1, 'instant'],
    ['GFS 10 m v', id('kwbc', 0, 2, 3, 'heightAboveGround', 10), 'wind_v', 'surface'],
    ['ECMWF 100 m u', id('ecmf', 0, 2, 2, 'heightAboveGround', 100), 'wind_u', '100m'],
    ['GFS 80 m u (no catalogue level)', id('kwbc', 0, 2, 2, 'heightAboveGround', 80), null],
    ['850 hPa u', id('kwbc', 0, 2, 2, 'isobaricInhPa', 850), 'wind_u', '850h'],
    ['850 hPa v in Pa', id('ecmf', 0, 2, 3, 'isobaricInPa', 85000), 'wind_v', '850h'],
    ['1000 hPa u (not a catalogue level)', id('kwbc', 0, 2, 2, 'isobaricInhPa', 1000), null],
    ['GFS surface gust', id('kwbc', 0, 2, 22, 'surface', 0), 'gust', 'surface'],
    ['ECMWF 10fg (max)', id('ecmf', 0, 2, 22, 'heightAboveGround', 10, 2), 'gust', 'surface'],
    ['2 m temperature', id('kwbc', 0, 0, 0, 'heightAboveGround', 2), 'temp', 'surface'],
    ['2 m Tmax is not the temperature', id('kwbc', 0, 0, 0, 'heightAboveGround', 2, 2), null],
    ['skin temperature is not 2 m: the SST input', id('kwbc', 0, 0, 0, 'surface', 0), 'sst_skin', 'surface'],
    ['500 hPa temperature', id('kwbc', 0, 0, 0, 'isobaricInhPa', 500), 'temp', '500h'],
    ['2 m dew point', id('ecmf', 0, 0, 6, 'heightAboveGround', 2), 'dewpoint', 'surface'],
    ['2 m RH', id('kwbc', 0, 1, 1, 'heightAboveGround', 2), 'rh', 'surface'],
    ['RH at 850 hPa: the rh layer at 850 hPa (soundings, icing)', id('kwbc', 0, 1, 1, 'isobaricInhPa', 850), 'rh', '850h'],
    ['ECMWF r at 700 hPa', id('ecmf', 0, 1, 1, 'isobaricInhPa', 700), 'rh', '700h'],
    ['GFS PRMSL', id('kwbc', 0, 3, 1, 'meanSea', 0), 'pressure', 'surface'],
    ['ECMWF msl', id('ecmf', 0, 3, 0, 'meanSea', 0), 'pressure', 'surface'],
    ['surface pressure is not MSLP (an input of the CCL)', id('kwbc', 0, 3, 0, 'surface', 0), 'surfacePressure', 'surface'],
    ['GFS MSLET', id('kwbc', 0, 3, 192, 'meanSea', 0), 'pressure', 'surface'],
    ['GFS HGT 500', id('kwbc', 0, 3, 5, 'isobaricInhPa', 500), 'gh', '500h', 1],
    ['ECMWF z 500 -> gpm', id('ecmf', 0, 3, 4, 'isobaricInhPa', 500), 'gh', '500h', 1 / 9.80665],
    ['GFS orography (HGT at the surface) is the model elevation, not gh', id('kwbc', 0, 3, 5, 'surface', 0), 'elevation', 'surface', 1, 'instant'],
    ['ECMWF surface geopotential z -> m', id('ecmf', 0, 3, 4, 'surface', 0), 'elevation', 'surface', 1 / 9.80665],
    ['DWD HSURF', id('edzw', 0, 3, 6, 'surface', 0), 'elevation', 'surface', 1],
    ['DWD HHL (heights of model levels) is not the surface', id('edzw', 0, 3, 6, 'generalVertical', 1), null],
    ['GFS APCP', id('kwbc', 0, 1, 8, 'surface', 0, 1), 'rain', 'surface', 1, 'accumulation'],
    ['ECMWF tp in metres', id('ecmf', 0, 1, 193, 'surface', 0, 1), 'rain', 'surface', 1000, 'accumulation'],
    ['NCEP 1-193 is freezing rain: a precipitation type flag', id('kwbc', 0, 1, 193, 'surface', 0, 0), 'ptype_freezing', 'surface'],
    ['DWD TOT_PREC', id('edzw', 0, 1, 52, 'surface', 0, 1), 'rain', 'surface', 1, 'accumulation'],
    ['ECMWF tprate', id('ecmf', 0, 1, 52, 'surface', 0), 'rain', 'surface', 3600, 'rate'],
    ['GFS PRATE average', id('kwbc', 0, 1, 7, 'surface', 0, 0), 'rain', 'surface', 3600, 'rate'],
    ['GFS TCDC entire atmosphere', id('kwbc', 0, 6, 1, 'atmosphere', 0), 'clouds', 'surface'],
    ['GFS 2.5 TCDC atmosphereSingleLayer', id('kwbc', 0, 6, 1, 'atmosphereSingleLayer', 0, 0), 'clouds', 'surface'],
    ['GFS TCDC low', id('kwbc', 0, 6, 1, 'lowCloudLayer', 0, 0), 'lclouds', 'surface'],
    ['GFS TCDC middle', id('kwbc', 0, 6, 1, 'middleCloudLayer', 0), 'mclouds', 'surface'],
    ['GFS TCDC high', id('kwbc', 0, 6, 1, 'highCloudLayer', 0), 'hclouds', 'surface'],
    ['GFS TCDC convective layer', id('kwbc', 0, 6, 1, 'convectiveCloudLayer', 0), null],
    ['ECMWF tcc', id('ecmf', 0, 6, 1, 'surface', 0), 'clouds', 'surface'],
    ['ECMWF lcc', id('ecmf', 0, 6, 3, 'surface', 0), 'lclouds', 'surface'],
    ['ECMWF mcc', id('ecmf', 0, 6, 4, 'surface', 0), 'mclouds', 'surface'],
    ['ECMWF hcc', id('ecmf', 0, 6, 5, 'surface', 0), 'hclouds', 'surface'],
    ['DWD CLCL', id('edzw', 0, 6, 22, 'isobaricLayer', 800), 'lclouds', 'surface'],
    ['surface CAPE', id('kwbc', 0, 7, 6, 'surface', 0), 'cape', 'surface'],
    ['GFS CAPE 180-0 hPa', id('kwbc', 0, 7, 6, 'pressureFromGroundLayer', 18000), 'cape', 'surface'],
    ['ECMWF MUCAPE', id('ecmf', 0, 7, 6, 'mostUnstableParcel', 0), 'cape', 'surface'],
    ['GFS-Wave HTSGW', id('kwbc', 10, 0, 3, 'surface', 1), 'waves', 'surface'],
    ['sea ice is not waves: the SST mask, in %', id('kwbc', 10, 2, 0, 'surface', 0), 'sst_ice', 'surface', 100],
    // The wave families: GFS-Wave's swell partitions on level type 241 (ecCodes orderedSequenceData), ECMWF WAM's means.
    ['GFS-Wave DIRPW', id('kwbc', 10, 0, 10, 'surface', 1), 'waves_dir', 'surface'],
    ['GFS-Wave PERPW', id('kwbc', 10, 0, 11, 'surface', 1), 'waves_period', 'surface'],
    ['ECMWF mwd', id('ecmf', 10, 0, 14, 'meanSea', 0), 'waves_dir', 'surface'],
    ['ECMWF mwp', id('ecmf', 10, 0, 15, 'meanSea', 0), 'waves_period', 'surface'],
    ['GFS-Wave WVHGT', id('kwbc', 10, 0, 5, 'surface', 1), 'wwaves', 'surface'],
    ['GFS-Wave WVDIR', id('kwbc', 10, 0, 4, 'surface', 1), 'wwaves_dir', 'surface'],
    ['GFS-Wave WVPER', id('kwbc', 10, 0, 6, 'surface', 1), 'wwaves_period', 'surface'],
    ['GFS-Wave SWELL 1 in sequence', id('kwbc', 10, 0, 8, 'orderedSequenceData', 1), 'swell1', 'surface'],
    ['GFS-Wave SWDIR 2 in sequence', id('kwbc', 10, 0, 7, 'orderedSequenceData', 2), 'swell2_dir', 'surface'],
    ['GFS-Wave SWPER 3 in sequence', id('kwbc', 10, 0, 9, 'orderedSequenceData', 3), 'swell3_period', 'surface'],
    ['a fourth swell partition', id('kwbc', 10, 0, 8, 'orderedSequenceData', 4), null],
    ['ECMWF shts (total swell)', id('ecmf', 10, 0, 8, 'surface', 0), 'swell1', 'surface'],
    // Overlays straight from model fields.
    ['GFS HGT at the 0 °C isotherm', id('kwbc', 0, 3, 5, 'isothermZero', 0), 'deg0', 'surface', 1],
    ['GFS HGT at the highest tropospheric freezing level is not deg0', id('kwbc', 0, 3, 5, 'highestTroposphericFreezing', 0), null],
    ['GFS TOZNE (DU)', id('kwbc', 0, 14, 0, 'atmosphereSingleLayer', 0), 'gtco3', 'surface', 1],
    ['CAMS gtco3 (kg/m²)', { ...id('ecmf', 0, 20, 1, 'atmosphere', 0), constituentType: 0 }, 'gtco3', 'surface', 1 / 2.1415e-5],
    ['GFS SNOD (m)', id('kwbc', 0, 1, 11, 'surface', 0), 'snowcover', 'surface', 100],
    // Not a depth (not snowcover): the water equivalent that snowAccu is the rise of.
    ['GFS WEASD (water equivalent) is not a depth', id('kwbc', 0, 1, 13, 'surface', 0), 'snowWe', 'surface', 1],
    ['ECMWF sd (kg/m²)', id('ecmf', 0, 1, 60, 'surface', 0), 'snow_swe', 'surface', 1],
    ['ECMWF rsn (kg/m³)', id('ecmf', 0, 1, 61, 'surface', 0), 'snow_density', 'surface', 1],
    ['GFS CRAIN', id('kwbc', 0, 1, 192, 'surface', 0, 0), 'ptype_rain', 'surface'],
    ['GFS CICEP', id('kwbc', 0, 1, 194, 'surface', 0, 0), 'ptype_pellets', 'surface'],
    ['GFS CSNOW', id('kwbc', 0, 1, 195, 'surface', 0, 0), 'ptype_snow', 'surface'],
    ['ECMWF ptype', id('ecmf', 0, 1, 19, 'surface', 0), 'ptype_wmo', 'surface'],
    ['GFS PRES at the convective cloud top', id('kwbc', 0, 3, 0, 'convectiveCloudTop', 0), 'cloudtop_pressure', 'surface'],
    ['GFS PRES at the convective cloud bottom', id('kwbc', 0, 3, 0, 'convectiveCloudBottom', 0), 'cbase_pressure', 'surface'],
    ['GFS PRES at the low cloud top is not the cloud top', id('kwbc', 0, 3, 0, 'lowCloudTop', 0), null],
    ['GFS 0.25 HGT at the cloud ceiling', id('kwbc', 0, 3, 5, 'cloudCeiling', 0), 'cbase', 'surface', 1],
    ['GFS VIS', id('kwbc', 0, 19, 0, 'surface', 0), 'visibility', 'surface', 1],
    ['ECMWF sst', id('ecmf', 10, 3, 0, 'surface', 0), 'sst', 'surface', 1],
    ['GFS LAND (fraction, in %)', id('kwbc', 2, 0, 0, 'surface', 0), 'sst_land', 'surface', 100],
    ['soil temperature is not the sea', id('kwbc', 0, 0, 0, 'depthBelowLandLayer', 0), null],
    ['CAMS hybrid-level ozone', id('ecmf', 0, 20, 2, 'hybrid', 1), null],
    // Air quality (template 4.48): NCEP's PMTF / PMTC are µg/m³; WMO mass density is kg/m³.
    ['GEFS-Aerosols PMTF total aerosol < 2.5 µm', aerosol(id('kwbc', 0, 13, 193, 'surface', 0), TOTAL, PM25), 'pm2p5', 'surface', 1, 'instant'],
    ['GEFS-Aerosols PMTC total aerosol < 10 µm', aerosol(id('kwbc', 0, 13, 192, 'surface', 0), TOTAL, PM10), 'pm10', 'surface', 1],
    ['dust-only PM2.5 is not the air\'s PM2.5', aerosol(id('kwbc', 0, 13, 193, 'surface', 0), DUST, PM25), null],
    ['PMTF without an aerosol type (template 4.0)', id('kwbc', 0, 13, 193, 'surface', 0), null],
    ['PMTF of another particle size', aerosol(id('kwbc', 0, 13, 193, 'surface', 0), TOTAL, PM10), null],
    ['NCEP 13-193 from another centre', aerosol(id('ecmf', 0, 13, 193, 'surface', 0), TOTAL, PM25), null],
    ['WMO mass density < 2.5 µm (kg/m³)', aerosol(id('ecmf', 0, 20, 0, 'surface', 0), TOTAL, PM25), 'pm2p5', 'surface', 1e9],
    ['WMO mass density < 10 µm, size as "up to" the second limit', {
      ...aerosol(id('ecmf', 0, 20, 0, 'surface', 0), TOTAL), sizeInterval: { type: 9, first: NaN, second: 1e-5 },
    }, 'pm10', 'surface', 1e9],
    ['WMO mass density of constituent PM2.5 (40009)', { ...id('ecmf', 0, 20, 0, 'surface', 0), constituentType: 40009 }, 'pm2p5', 'surface', 1e9],
    ['column mass density is not surface PM', aerosol(id('kwbc', 0, 20, 1, 'atmosphere', 0), TOTAL, PM25), null],
    ['GEFS-Aerosols AOD 545-565 nm', aerosol(id('kwbc', 0, 20, 102, 'atmosphere', 0), TOTAL, AOD_SIZE, NM550), 'aod550', 'surface', 1, 'instant'],
    ['AOD 620-670 nm is not 550 nm', aerosol(id('kwbc', 0, 20, 102, 'atmosphere', 0), TOTAL, AOD_SIZE, [620e-9, 670e-9]), null],
    ['dust-only AOD', aerosol(id('kwbc', 0, 20, 102, 'atmosphere', 0), DUST, AOD_SIZE, NM550), null],
    ['AOD at exactly 550 nm (type 11)', {
      ...aerosol(id('ecmf', 0, 20, 102, 'atmosphere', 0), TOTAL), wavelengthInterval: { type: 11, first: 5.5e-7, second: NaN },
    }, 'aod550', 'surface'],
    ['scattering AOD is not AOD', aerosol(id('kwbc', 0, 20, 112, 'atmosphere', 0), TOTAL, AOD_SIZE, NM550), null],
  ])('%s', (_what, identity, variable, level, factor, kind) => {
    const match = matchGribField(identity);
    if (variable === null) {
      expect(match).toBeNull();
      return;
    }
    expect(match?.variable.ident).toBe(variable);
    expect(match?.level).toBe(level);
    if (factor !== undefined) expect(match?.factor).toBeCloseTo(factor, 12);
    if (kind !== undefined) expect(match?.kind).toBe(kind);
  });

  it('prefers the surface-based CAPE and PRMSL over their fallbacks', () => {
    const surface = matchGribField(id('kwbc', 0, 7, 6, 'surface', 0))!;
    const layer = matchGribField(id('kwbc', 0, 7, 6, 'pressureFromGroundLayer', 25500))!;
    expect(surface.priority).toBeGreaterThan(layer.priority);
    expect(matchGribField(id('kwbc', 0, 3, 1, 'meanSea', 0))!.priority).toBeGreaterThan(matchGribField(id('kwbc', 0, 3, 192, 'meanSea', 0))!.priority);
    expect(matchGribField(id('kwbc', 0, 1, 8, 'surface', 0, 1))!.priority).toBeGreaterThan(matchGribField(id('kwbc', 0, 1, 7, 'surface', 0, 0))!.priority);
  });
});
