/**
 * The ingest's input finding with files as NWS and GTS ship them: GRIB2 messages inside WMO
 * bulletin headers are GRIB input, grouped into a run like the bare messages.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inventory } from '../../engine/grib/index.ts';
import { createEngine } from '../../engine/testing.ts';
import { describeWithFixtures, readFixture } from '../../engine/grib/testing.ts';
import { engineGribReader } from './fields.ts';
import { groupRuns, startsWithGrib } from './inputs.ts';

const text = (s: string) => new TextEncoder().encode(s);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobar-inputs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeWithFixtures('ingest input with WMO bulletin headers', () => {
  it('takes a bulletin-wrapped GRIB2 file as GRIB input and groups it with its run', async () => {
    const plain = await readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2');
    const parts: Uint8Array[] = [];
    inventory(plain).forEach((f, k) => {
      parts.push(text(`\x01\r\r\n${String(k + 1).padStart(3, '0')}\r\r\nHTRA50 KWBC 061200\r\r\n`), plain.subarray(f.offset, f.offset + f.length), text('\r\r\n\x03'));
    });
    const wrapped = join(dir, 'gfs.bulletin');
    const bare = join(dir, 'gfs.grib2');
    const html = join(dir, 'error.html');
    await writeFile(wrapped, Buffer.concat(parts));
    await writeFile(bare, plain);
    await writeFile(html, '<html><body>503 Service Unavailable</body></html>');
    expect(await startsWithGrib(wrapped)).toBe(true);
    expect(await startsWithGrib(bare)).toBe(true);
    expect(await startsWithGrib(html)).toBe(false);
    const failures: string[] = [];
    const runs = await groupRuns([wrapped, bare], engineGribReader(await createEngine()), 'gfs', failures, () => {});
    expect(failures).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(runs[0].files).toEqual([wrapped, bare]);
  });
});
