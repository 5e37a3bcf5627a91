/** An app server of a spec's own (the built server/main.ts in a child process), for specs that need other settings than the e2e server's. */

import { spawn, type ChildProcess } from 'node:child_process';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect } from '@playwright/test';
import { builtProgram } from '../server/ops/builtModules.ts';

/**
 * Starts server/main.ts on `port` with its own data directory and no samples, `env` on top; its
 * output goes to `log`. Resolves once it answers.
 */
export async function startAppServer(options: { port: number; dataDir: string; log: string; env: Record<string, string> }): Promise<ChildProcess> {
  const { port, dataDir } = options;
  const out = await open(options.log, 'a');
  const child = spawn(process.execPath, [builtProgram('server/main.ts')], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', ISOBAR_DATA_DIR: dataDir, ISOBAR_DB_PATH: resolve(dataDir, 'isobar.sqlite'),
      ISOBAR_SAMPLES_DIR: 'none', STRIPE_SECRET_KEY: '', ...options.env,
    },
    stdio: ['ignore', out.fd, out.fd],
  });
  // The child has its own copy of the descriptor.
  await out.close();
  await expect.poll(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/metadata/v1.0/demo/minifest.json`)).status;
    } catch {
      return 0;
    }
  }, { timeout: 60_000 }).toBe(200);
  return child;
}

/** Stops a server startAppServer started and waits until it has exited. */
export async function stopAppServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
