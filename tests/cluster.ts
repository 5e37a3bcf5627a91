/**
 * The parts of a several-process Isobar (issue 17 point 6) for tests/cluster.spec.ts and the
 * cluster bench: server processes of each role (server/main.ts with ISOBAR_ROLE) and HAProxy from
 * Debian in front of the web processes (the S3-compatible server is server/storage/testing.ts).
 *
 * HAProxy is configured as one would in production: health checks on /readyz (a draining or
 * unready process leaves the pool), and idempotent requests that fail on a dead server (connection
 * refused or reset, an empty answer, a 503 from a closing process) retried once on the other.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtProgram } from '../server/ops/builtModules.ts';

/** The HAProxy program: ISOBAR_HAPROXY, else haproxy on the PATH (.ci/run installs Debian's). */
export const HAPROXY = process.env.ISOBAR_HAPROXY ?? 'haproxy';

/** Whether HAProxy can be run here. */
export function haproxyPresent(): boolean {
  return spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0;
}

export interface ServerProcess {
  name: string;
  port: number;
  child: ChildProcess;
  base: string;
}

/** Starts the built server/main.ts with `env` on top of this process's; resolves once /healthz answers. */
export async function startServerProcess(name: string, port: number, log: string, env: Record<string, string>): Promise<ServerProcess> {
  const base = `http://127.0.0.1:${port}`;
  // A process left over from an earlier run would answer in this one's place.
  if (await fetch(`${base}/healthz`).then(() => true, () => false)) throw new Error(`Port ${port} is taken (a server left over?): cannot start ${name}`);
  const out = await open(log, 'a');
  const child = spawn(process.execPath, [builtProgram('server/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ISOBAR_SAMPLES_DIR: 'none', STRIPE_SECRET_KEY: '', ...env },
    stdio: ['ignore', out.fd, out.fd],
  });
  await out.close();
  await until(`${name} answers /healthz`, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${log}`);
    return (await fetch(`${base}/healthz`).catch(() => null))?.ok === true;
  }, 90_000);
  return { name, port, child, base };
}

/** Ends a process (SIGKILL: as a crash does) and waits until it is gone. */
export async function killProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill(signal);
  await exited;
}

/** Polls `condition` until it is true; throws with `what` after `timeoutMs`. */
export async function until(what: string, condition: () => Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface Balancer {
  base: string;
  child: ChildProcess;
}

/** HAProxy on `port` in front of `backends` (host:port), checking /readyz every 500 ms. */
export async function startHaproxy(port: number, backends: readonly ServerProcess[], dir: string, log: string): Promise<Balancer> {
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 2',
    // A request that failed on a server that died is sent to the other (idempotent methods only).
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout 503',
    'frontend isobar',
    `  bind 127.0.0.1:${port}`,
    '  unique-id-format %{+X}o\\ %ci-%cp-%Ts-%rt',
    '  http-request set-header X-Request-Id %[unique-id] unless { req.hdr(x-request-id) -m found }',
    '  default_backend web',
    'backend web',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  default-server inter 500ms fall 2 rise 1',
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    '',
  ].join('\n');
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const out = await open(log, 'a');
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', out.fd, out.fd] });
  await out.close();
  const base = `http://127.0.0.1:${port}`;
  await until('HAProxy answers through a ready web process', async () => {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}; see ${log}`);
    return (await fetch(`${base}/healthz`).catch(() => null))?.ok === true;
  }, 30_000);
  return { base, child };
}
