/**
 * Test helpers for the job queue in PostgreSQL: a pg-boss schema of its own per case, and a worker
 * in a process of its own, to be killed mid-job (server/jobs/pgBossQueue.test.ts,
 * server/live/sharedRounds.test.ts).
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** A fresh pg-boss schema name. */
export function jobSchemaName(): string {
  return `t_jobs_${randomBytes(6).toString('hex')}`;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Waits until the process has written a line starting with `text`. */
  line(text: string): Promise<void>;
  /** SIGKILL unless it has ended. */
  kill(): void;
}

/** Runs a TypeScript file as a process of its own with `env` added, its stdout read by `line`. */
export function spawnWorker(script: string, env: Record<string, string>): WorkerProcess {
  // node itself with tsx's loader (the tsx command would run node as its own child, which SIGKILL would not reach).
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    wake();
  });
  child.on('exit', wake);
  return {
    child,
    async line(text) {
      while (!out.split('\n').some((line) => line.startsWith(text))) {
        if (child.exitCode !== null) throw new Error(`the worker process ended (${child.exitCode}) before saying "${text}"`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
