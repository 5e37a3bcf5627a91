/** Starts tests/fixedClockServer.ts (an app server whose clock is held), as built by server/build.ts, for a spec. */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { builtProgram } from '../server/ops/builtModules.ts';

/** Resolves with the server's origin and its stop once it listens; `dataDir` is the data it serves. */
export async function startFixedClockServer(clock: string, options: { dataDir?: string } = {}): Promise<{ origin: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [builtProgram('tests/fixedClockServer.ts')], {
    env: {
      ...process.env, ISOBAR_FIXED_CLOCK: clock, ISOBAR_FIXED_DIR: mkdtempSync(join(tmpdir(), 'isobar-fixed-clock-')),
      ...(options.dataDir ? { ISOBAR_FIXED_DATA_DIR: options.dataDir } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`tests/fixedClockServer.ts exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}
