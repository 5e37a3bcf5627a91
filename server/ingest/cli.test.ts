/**
 * `npm run ingest` (cli.ts main): exit status 0 when every run was loaded, 1 with an
 * "error: <file>: ..." line per failure, 2 for bad usage; output captured with stand-in streams.
 */

import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from './cli.ts';
import { currentPointerPath, listRunIds, readCurrentRunId, stagingDir } from './layout.ts';
import { captureStream, describeWithFixtures, SAMPLE, tempDir } from './testing.ts';

const DIR = 'gfs2p5-20170322';
const REF = Date.UTC(2017, 2, 22, 0);
/** Zoom 0 only: the CLI's own work, not tile rendering, is under test. */
const FAST = ['--prerender', '0', '--prerender-levels', '0'];

const exists = (path: string) => access(path).then(() => true, () => false);

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = captureStream();
  const err = captureStream();
  // main's defaults are process.stdout and process.stderr, typed with their fd.
  const code = await main(args, out as unknown as typeof process.stdout, err as unknown as typeof process.stderr);
  return { code, out: out.text(), err: err.text() };
}

/** The lines of stderr that report failures. */
const errorLines = (err: string) => err.split('\n').filter((line) => line.startsWith('error: '));

describeWithFixtures('npm run ingest (cli.ts main)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let truncated: string;
  let text: string;

  beforeAll(async () => {
    data = await tempDir();
    const bytes = await readFile(SAMPLE.gfs2p5Analysis);
    truncated = join(data.dir, 'truncated.grib2');
    await writeFile(truncated, bytes.subarray(0, 1_000_000));
    text = join(data.dir, 'readme.txt');
    await writeFile(text, 'not GRIB\n');
  });
  afterAll(() => data?.remove());

  it('exit 0 for a good file: the run is published and summarised', async () => {
    const dataDir = join(data.dir, 'good');
    const { code, out, err } = await run([SAMPLE.gfs2p5Analysis, '--data-dir', dataDir, ...FAST]);
    expect(errorLines(err)).toEqual([]);
    expect(code).toBe(0);
    const id = await readCurrentRunId(dataDir, DIR);
    expect(id).toMatch(/^2017032200-/);
    expect(out).toContain('gfs2p5-20170322 run 2017032200: 1 file(s)');
    expect(out).toMatch(/gfs2p5-20170322 run 2017032200: 1 step\(s\) \(\+0 h\), \d+ layers, \d+ tiles/);
    expect(out).toContain(`published as ${id}`);
    expect(out).toContain(`data directory: ${dataDir}`);
  });

  it('exit 0 with --no-publish: the run stays staged', async () => {
    const dataDir = join(data.dir, 'staged');
    const { code, out } = await run([SAMPLE.gfs2p5Analysis, '--data-dir', dataDir, '--no-publish', ...FAST]);
    expect(code).toBe(0);
    expect(out).toContain('staged (not published)');
    expect(await exists(currentPointerPath(dataDir, DIR))).toBe(false);
    expect(await exists(join(stagingDir(dataDir, DIR, REF), 'build.json'))).toBe(true);
  });

  it('exit 1 with an "error: <file>: ..." line for a file that is not GRIB2, one that is truncated, one that is missing', async () => {
    const dataDir = join(data.dir, 'bad');
    const missing = join(data.dir, 'missing.grib2');
    const { code, err } = await run([text, truncated, missing, '--data-dir', dataDir]);
    expect(code).toBe(1);
    const lines = errorLines(err);
    expect(lines).toHaveLength(3);
    expect(lines).toContain(`error: ${text}: not a GRIB2 file (it does not start with "GRIB")`);
    expect(lines).toContain(`error: ${missing}: no such file or directory`);
    expect(lines.find((l) => l.startsWith(`error: ${truncated}: `))).toMatch(/truncated/);
    expect(await exists(dataDir)).toBe(false);
  });

  it('exit 1 when one input fails, while the good one is still published', async () => {
    const dataDir = join(data.dir, 'mixed');
    const { code, err } = await run([SAMPLE.gfs2p5Analysis, truncated, '--data-dir', dataDir, ...FAST]);
    expect(code).toBe(1);
    expect(errorLines(err)).toEqual([expect.stringMatching(new RegExp(`^error: ${truncated.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*truncated`))]);
    expect(await listRunIds(dataDir, DIR)).toHaveLength(1);
  });

  it('exit 1 for a directory that holds no GRIB2 file', async () => {
    const empty = join(data.dir, 'no-grib');
    await mkdir(empty);
    await writeFile(join(empty, 'notes.txt'), 'nothing here');
    const { code, out, err } = await run([empty, '--data-dir', join(data.dir, 'empty')]);
    expect(code).toBe(1);
    expect(out).toContain(`${empty}: 0 GRIB2 file(s) of 1`);
    expect(errorLines(err)).toEqual([`error: ${empty}: holds no GRIB2 file`]);
  });

  it('exit 2 for usage errors, with the usage text', async () => {
    const dataDir = join(data.dir, 'usage');
    const cases: [string[], RegExp][] = [
      [[], /Nothing to ingest/],
      [['--bogus', SAMPLE.gfs2p5Analysis], /bogus/],
      [['--product'], /--product/],
      [[SAMPLE.gfs2p5Analysis, '--product', 'nope', '--data-dir', dataDir], /Unknown product "nope"; the catalogue has .*gfs2p5-20170322/],
      [[SAMPLE.gfs2p5Analysis, '--product', 'demo', '--data-dir', dataDir], /Unknown product "demo"/],
      [[SAMPLE.gfs2p5Analysis, '--prerender', 'lots', '--data-dir', dataDir], /--prerender needs a number, not "lots"/],
      [[SAMPLE.gfs2p5Analysis, '--point-resolution=-1', '--data-dir', dataDir], /--point-resolution needs a number, not "-1"/],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err, args.join(' ')).toMatch(message);
      expect(err).toContain('usage: npm run ingest -- <file|dir|url>...');
      expect(out).toBe('');
    }
    expect(await exists(dataDir)).toBe(false);
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, out, err } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: npm run ingest/);
    expect(err).toBe('');
  });
});
