import { expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { FixtureServer } from './fixtureServer.ts';
import { GFS_STEPS, gfsWantedMessages, newestGfsRun, putGfsRun } from './fixtureRun.ts';
import { noaaIndexText } from './fixtureIndex.ts';
import { parseNoaaIndex } from './indexFiles.ts';
import { createGfsSource } from './gfs.ts';
import { runBytes } from './runBytes.ts';
import { describeWithFixtures, FIXTURE, FIXTURES_DIR } from './testing.ts';

describeWithFixtures('runBytes', () => {
  it('sums the ranges of the fields the source asks for over every step of the newest complete run', async () => {
    const server = await FixtureServer.start();
    try {
      const now = Date.UTC(2026, 10, 27, 7);
      const run = newestGfsRun(now);
      expect(run).toBe(Date.UTC(2026, 10, 27, 0));
      const analysis = new Uint8Array(await readFile(FIXTURES_DIR + FIXTURE.gfs2p5Analysis));
      const perStep = putGfsRun(server, analysis, run);
      // The model's terrain height comes with the first step only (gfs.ts).
      const entries = parseNoaaIndex(noaaIndexText(gfsWantedMessages(analysis)));
      const k = entries.findIndex((e) => e.variable === 'HGT' && e.level === 'surface');
      const terrain = (entries[k + 1]?.offset ?? perStep) - entries[k].offset;
      expect(terrain).toBeGreaterThan(0);
      const sized = await runBytes(createGfsSource({ baseUrl: server.url }), { now });
      // Each step's file here is the wanted messages alone: the ranges cover it whole, the last one to its end.
      expect(sized).toEqual({ source: 'gfs', refTime: run, steps: GFS_STEPS.length, bytes: perStep * GFS_STEPS.length - terrain * (GFS_STEPS.length - 1) });
      // Only index files and lengths were asked for, no field data.
      expect(server.requests(undefined, true)).toEqual([]);
      expect(server.log.filter((r) => r.method === 'GET' && !r.path.endsWith('.idx'))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
