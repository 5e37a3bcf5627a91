import { describe, expect, it } from 'vitest';
import { LEVELS } from '../../common/catalogue/index.ts';
import { ecmwfDataUrl, ecmwfIndexUrl, ifsSteps } from './ecmwf.ts';
import { gfsDataUrl } from './gfs.ts';
import { gfsWaveDataUrl } from './gfsWave.ts';
import { iconFileName, iconListingUrl, iconSteps } from './icon.ts';
import { candidateRuns, forEachConcurrent, PRESSURE_LEVELS_HPA, runParts, stepRange } from './source.ts';

const RUN = Date.UTC(2024, 0, 2, 6);

describe('upstream URL layouts', () => {
  it.each([
    ['GFS on NOMADS', gfsDataUrl('https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod', RUN, 3),
      'https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod/gfs.20240102/06/atmos/gfs.t06z.pgrb2.0p25.f003'],
    ['GFS on AWS', gfsDataUrl('https://noaa-gfs-bdp-pds.s3.amazonaws.com', RUN, 240),
      'https://noaa-gfs-bdp-pds.s3.amazonaws.com/gfs.20240102/06/atmos/gfs.t06z.pgrb2.0p25.f240'],
    ['GFS-Wave', gfsWaveDataUrl('https://noaa-gfs-bdp-pds.s3.amazonaws.com', RUN, 12),
      'https://noaa-gfs-bdp-pds.s3.amazonaws.com/gfs.20240102/06/wave/gridded/gfswave.t06z.global.0p25.f012.grib2'],
    ['ECMWF IFS', ecmwfDataUrl('https://data.ecmwf.int/forecasts', 'ifs', RUN, 144),
      'https://data.ecmwf.int/forecasts/20240102/06z/ifs/0p25/oper/20240102060000-144h-oper-fc.grib2'],
    ['ECMWF IFS index', ecmwfIndexUrl(ecmwfDataUrl('https://data.ecmwf.int/forecasts', 'ifs', RUN, 0)),
      'https://data.ecmwf.int/forecasts/20240102/06z/ifs/0p25/oper/20240102060000-0h-oper-fc.index'],
    ['ECMWF AIFS', ecmwfDataUrl('https://data.ecmwf.int/forecasts', 'aifs-single', RUN, 6),
      'https://data.ecmwf.int/forecasts/20240102/06z/aifs-single/0p25/oper/20240102060000-6h-oper-fc.grib2'],
    ['ICON listing', iconListingUrl('https://opendata.dwd.de/weather/nwp', 'icon', RUN, { variable: 'T_2M' }),
      'https://opendata.dwd.de/weather/nwp/icon/grib/06/t_2m/'],
    ['ICON single level', iconFileName('icon', RUN, 3, { variable: 'T_2M' }),
      'icon_global_icosahedral_single-level_2024010206_003_T_2M.grib2.bz2'],
    ['ICON-EU single level', iconFileName('icon-eu', RUN, 120, { variable: 'U_10M' }),
      'icon-eu_europe_regular-lat-lon_single-level_2024010206_120_U_10M.grib2.bz2'],
    ['ICON-EU pressure level', iconFileName('icon-eu', RUN, 9, { variable: 'FI', levelHPa: 500 }),
      'icon-eu_europe_regular-lat-lon_pressure-level_2024010206_009_500_FI.grib2.bz2'],
  ])('%s', (_name, url, expected) => {
    expect(url).toBe(expected);
  });
});

describe('run times', () => {
  it('names runs as upstream paths do', () => {
    expect(runParts(Date.UTC(2018, 9, 6, 18))).toEqual({ yyyymmdd: '20181006', hh: '18', yyyymmddhh: '2018100618' });
  });

  const schedule = { runHours: [0, 6, 12, 18], publishDelayMinutes: 240, lookbackHours: 24 };
  it('probes run hours from now minus the publication delay back over the look-back', () => {
    const now = Date.UTC(2024, 0, 2, 11, 30);
    expect(candidateRuns(now, schedule).map((t) => new Date(t).toISOString().slice(5, 13))).toEqual([
      '01-02T06', '01-02T00', '01-01T18', '01-01T12',
    ]);
  });

  it('stops at a run already taken', () => {
    const now = Date.UTC(2024, 0, 2, 11, 30);
    expect(candidateRuns(now, schedule, Date.UTC(2024, 0, 1, 18))).toEqual([Date.UTC(2024, 0, 2, 6), Date.UTC(2024, 0, 2, 0)]);
  });

  it('gives the IFS steps each run reaches: 3-hourly to 144 h, then 6-hourly; 06/18 UTC only to 144 h', () => {
    const steps = ifsSteps(Date.UTC(2024, 0, 2, 0), 240);
    expect(steps.slice(0, 3)).toEqual([0, 3, 6]);
    expect(steps.slice(47, 51)).toEqual([141, 144, 150, 156]);
    expect(steps[steps.length - 1]).toBe(240);
    expect(ifsSteps(Date.UTC(2024, 0, 2, 6), 240)).toEqual([]);
    expect(ifsSteps(Date.UTC(2024, 0, 2, 6), 144)).toEqual(stepRange(0, 144, 3));
  });

  it('gives ICON global 168 h from 00/12 UTC only', () => {
    expect(iconSteps(Date.UTC(2024, 0, 2, 12), 168, 3)).toHaveLength(57);
    expect(iconSteps(Date.UTC(2024, 0, 2, 18), 168, 3)).toEqual([]);
  });

  it('fetches pressure levels the catalogue has', () => {
    const catalogue = LEVELS.map((l) => l.hPa);
    for (const hPa of PRESSURE_LEVELS_HPA) expect(catalogue).toContain(hPa);
  });
});

describe('forEachConcurrent', () => {
  it('runs at most `limit` at once and stops starting after a failure', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await expect(forEachConcurrent([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 2) throw new Error('two');
    })).rejects.toThrow('two');
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3]);
  });
});
