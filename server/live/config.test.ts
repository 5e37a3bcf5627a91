import { resolve } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sourcesConfigFromEnv, SourcesConfigError } from './config.ts';
import type { IndexedSource } from './indexedSource.ts';
import type { EcmwfIndexEntry } from './indexFiles.ts';
import type { SourceLogger } from './source.ts';

describe('sourcesConfigFromEnv', () => {
  it('follows the default set when ISOBAR_SOURCES is unset, if its upstreams answer', () => {
    // The data directory the server reads (server/ingest/layout.ts), so the runs ingested are served.
    const config = sourcesConfigFromEnv({});
    expect(config).toMatchObject({ dataDir: resolve('var/data'), premium: false, mode: 'default' });
    expect(config.sources.map((s) => s.id)).toEqual(['gfs', 'gfsWave', 'ecmwf']);
    expect(config.sources.map((s) => s.product)).toEqual(['gfs', 'gfsWave', 'ecmwf']);
    // GFS at 0.5° in the default set, 0.25° when named.
    const gfsUrl = (c: typeof config) => (c.sources[0] as IndexedSource<EcmwfIndexEntry>).model.dataUrl(Date.UTC(2024, 0, 2), 3);
    expect(gfsUrl(config)).toMatch(/pgrb2\.0p50\.f003$/);
    expect(gfsUrl(sourcesConfigFromEnv({ ISOBAR_SOURCES: 'gfs' }))).toMatch(/pgrb2\.0p25\.f003$/);
  });

  it('runs nothing with ISOBAR_SOURCES=none', () => {
    expect(sourcesConfigFromEnv({ ISOBAR_SOURCES: 'none' })).toEqual({ dataDir: resolve('var/data'), sources: [], premium: false, mode: 'none' });
  });

  it('reads the data directory cap in gigabytes', () => {
    expect(sourcesConfigFromEnv({ ISOBAR_SOURCES: 'none', ISOBAR_DATA_MAX_GB: '1.5' }).maxDataBytes).toBe(1.5 * 1024 ** 3);
  });

  it('builds the sources listed, once each', () => {
    const config = sourcesConfigFromEnv({ ISOBAR_SOURCES: 'gfs, ecmwf,iconEu,gfs', ISOBAR_DATA_DIR: '/srv/isobar', ISOBAR_SOURCES_PREMIUM: '1' });
    expect(config.sources.map((s) => [s.id, s.product])).toEqual([['gfs', 'gfs'], ['ecmwf', 'ecmwf'], ['iconEu', 'iconEu']]);
    expect(config.dataDir).toBe('/srv/isobar');
    expect(config.premium).toBe(true);
    expect(config.mode).toBe('listed');
    expect(config.sources[0].intervalMinutes).toBe(720);
    expect(config.sources[0].premiumIntervalMinutes).toBe(360);
  });

  it('points a source at a mirror', () => {
    const [ecmwf] = sourcesConfigFromEnv({ ISOBAR_SOURCES: 'ecmwf', ISOBAR_ECMWF_URL: 'http://127.0.0.1:9/mirror/' }).sources as IndexedSource<EcmwfIndexEntry>[];
    expect(ecmwf.model.dataUrl(Date.UTC(2024, 0, 2), 3)).toBe('http://127.0.0.1:9/mirror/20240102/00z/ifs/0p25/oper/20240102000000-3h-oper-fc.grib2');
  });

  it('takes only the steps up to ISOBAR_SOURCES_HOURS, never past the model\'s length', () => {
    const run = Date.UTC(2024, 0, 2);
    const steps = (env: Record<string, string>) => (sourcesConfigFromEnv({ ISOBAR_SOURCES: 'gfs,ecmwf', ...env }).sources as IndexedSource<EcmwfIndexEntry>[]).map((s) => s.model.steps(run));
    expect(steps({ ISOBAR_SOURCES_HOURS: '12' })).toEqual([[0, 3, 6, 9, 12], [0, 3, 6, 9, 12]]);
    const [gfsAll, ecmwfAll] = steps({});
    expect(steps({ ISOBAR_SOURCES_HOURS: '10000' })).toEqual([gfsAll, ecmwfAll]);
  });

  it('marks ICON global as not runnable, saying why', () => {
    const [icon] = sourcesConfigFromEnv({ ISOBAR_SOURCES: 'icon' }).sources;
    expect(icon.unsupportedReason).toMatch(/icosahedral/);
  });

  it.each([
    [{ ISOBAR_SOURCES: 'gfs,hrrr' }, /unknown source "hrrr"; known: gfs, gfsWave, ecmwf, aifs, icon, iconEu/],
    [{ ISOBAR_GFS_URL: 'not a url' }, /ISOBAR_GFS_URL: "not a url" is not a URL/],
    [{ ISOBAR_ICON_EU_URL: 'ftp://opendata.dwd.de' }, /only http and https/],
    [{ ISOBAR_DATA_MAX_GB: 'ten' }, /ISOBAR_DATA_MAX_GB: "ten" is not a positive number of gigabytes/],
    [{ ISOBAR_DATA_MAX_GB: '0' }, /ISOBAR_DATA_MAX_GB: "0"/],
    [{ ISOBAR_SOURCES_HOURS: '2.5' }, /ISOBAR_SOURCES_HOURS: "2.5" is not a whole number of hours above 0/],
  ])('refuses %j', (env, error) => {
    expect(() => sourcesConfigFromEnv(env)).toThrow(SourcesConfigError);
    expect(() => sourcesConfigFromEnv(env)).toThrow(error);
  });

  it('takes the Fastify logger as it is', async () => {
    const app = Fastify({ logger: false });
    const logger: SourceLogger = app.log;
    expect(typeof logger.info).toBe('function');
    await app.close();
  });
});
