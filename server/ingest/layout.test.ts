import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquirePidLock } from './layout.ts';

describe('acquirePidLock (the download lock and a run build\'s lock)', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-lock-'));
    path = join(dir, '.lock');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('takes a free lock with this process\'s pid, refuses it to a second taker, and frees it on release', async () => {
    const lock = await acquirePidLock(path);
    expect('release' in lock).toBe(true);
    expect(await readFile(path, 'utf8')).toBe(String(process.pid));
    // The same process asking again takes its own lock over (a lock left before a crash).
    const again = await acquirePidLock(path);
    expect('release' in again).toBe(true);
    if ('release' in again) await again.release();
    expect(existsSync(path)).toBe(false);
  });

  it('answers the pid of a live holder and leaves its lock alone', async () => {
    await writeFile(path, '1'); // init: always alive
    expect(await acquirePidLock(path)).toEqual({ heldBy: 1 });
    expect(await readFile(path, 'utf8')).toBe('1');
  });

  it.each([['a process that is gone', '999999999'], ['an unreadable pid', 'garbage'], ['an empty file', '']])('takes over a lock left by %s', async (_what, content) => {
    await writeFile(path, content);
    const lock = await acquirePidLock(path);
    expect('release' in lock).toBe(true);
    expect(await readFile(path, 'utf8')).toBe(String(process.pid));
  });
});
