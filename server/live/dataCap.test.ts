import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataCapError, dataCapFromEnv, enforceDataCap, treeBytes } from './dataCap.ts';
import type { SourceLogger } from './source.ts';

const KB = 1024;
const KEEP = { source: 'gfs', refTime: Date.UTC(2024, 0, 3, 0) };

function captureLog(): SourceLogger & { lines: { level: string; msg?: string; obj: object }[] } {
  const lines: { level: string; msg?: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('enforceDataCap', () => {
  let dataDir: string;
  const put = async (path: string, bytes: number) => {
    await mkdir(join(dataDir, path, '..'), { recursive: true });
    await writeFile(join(dataDir, path), new Uint8Array(bytes));
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-cap-'));
    // GFS: the current run (02 00Z) and the one before (01 12Z); ECMWF: its current run (01 00Z);
    // downloads: the run being fetched (gfs 03 00Z) and an abandoned one of the day before (ecmwf 2023-12-31 12Z).
    await writeFile(join(dataDir, 'current.json'), '');
    await mkdir(join(dataDir, 'gfs'), { recursive: true });
    await writeFile(join(dataDir, 'gfs', 'current.json'), JSON.stringify({ run: '2024010200-a' }));
    await put('gfs/runs/2024010200-a/tiles/t', 100 * KB);
    await put('gfs/runs/2024010112-a/tiles/t', 100 * KB);
    await mkdir(join(dataDir, 'ecmwf-hres'), { recursive: true });
    await writeFile(join(dataDir, 'ecmwf-hres', 'current.json'), JSON.stringify({ run: '2024010100-b' }));
    await put('ecmwf-hres/runs/2024010100-b/tiles/t', 100 * KB);
    await put('downloads/gfs/2024010300/f000.grib2', 50 * KB);
    await put('downloads/ecmwf/2023123112/f000.grib2', 50 * KB);
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('does nothing under the cap', async () => {
    const total = await treeBytes(dataDir);
    expect(total).toBeGreaterThanOrEqual(400 * KB);
    expect(await enforceDataCap({ dataDir, maxBytes: total, log: captureLog(), keep: KEEP })).toBe(total);
    expect(existsSync(join(dataDir, 'gfs/runs/2024010112-a'))).toBe(true);
  });

  it('removes the oldest of what is not served or fetched first, and stops there', async () => {
    const log = captureLog();
    const total = await treeBytes(dataDir);
    // Over by 40 KB: the oldest removable thing (the abandoned ECMWF download, 50 KB) is enough.
    const after = await enforceDataCap({ dataDir, maxBytes: total - 40 * KB, log, keep: KEEP });
    expect(after).toBe(total - 50 * KB);
    expect(existsSync(join(dataDir, 'downloads/ecmwf/2023123112'))).toBe(false);
    expect(existsSync(join(dataDir, 'gfs/runs/2024010112-a'))).toBe(true);
    for (const kept of ['gfs/runs/2024010200-a', 'ecmwf-hres/runs/2024010100-b', 'downloads/gfs/2024010300']) expect(existsSync(join(dataDir, kept))).toBe(true);
    expect(log.lines.filter((l) => l.msg?.includes('pruned'))).toHaveLength(1);
  });

  it('stops the download with one log line when what is served and fetched is over the cap alone', async () => {
    const log = captureLog();
    await expect(enforceDataCap({ dataDir, maxBytes: 200 * KB, log, keep: KEEP })).rejects.toThrow(DataCapError);
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      expect.stringMatching(/over ISOBAR_DATA_MAX_GB .*the download of gfs 2024010300 stops/),
    ]);
    // Everything that could go went; the served runs and the download stay.
    expect(existsSync(join(dataDir, 'gfs/runs/2024010112-a'))).toBe(false);
    expect(existsSync(join(dataDir, 'downloads/ecmwf/2023123112'))).toBe(false);
    for (const kept of ['gfs/runs/2024010200-a', 'ecmwf-hres/runs/2024010100-b', 'downloads/gfs/2024010300/f000.grib2']) expect(existsSync(join(dataDir, kept))).toBe(true);
  });
});

describe('dataCapFromEnv', () => {
  it('reads gigabytes, refuses anything else', () => {
    expect(dataCapFromEnv(undefined)).toBeUndefined();
    expect(dataCapFromEnv('2')).toBe(2 * 1024 ** 3);
    expect(() => dataCapFromEnv('-1')).toThrow(/not a positive number/);
  });
});
