/**
 * Account figures (issue 5 targets), measured against a real server process on loopback
 * (server/routes/usersCrashServer.ts: the account routes over a SQLite file in WAL mode, each write
 * answered after its group-commit fsync (server/db/sqlite.ts), the production scrypt parameters, no
 * rate limits):
 *
 *   login latency   sequential logins of one user: dominated by the KDF, reported with its parameters
 *   sync round trip an open-loop load at a fixed rate (default 200 requests/s for 10 s, after a 2 s
 *                   warm-up at the same rate): requests are sent on schedule whether or not earlier
 *                   ones have answered, a mix of the sync calls a browser makes — settings upload
 *                   (POST /users/settings, one changed key), settings poll (GET ?storeTs, 304),
 *                   favourites poll (GET /users/v1/data/favs?storeTs) and favourite edit (PUT).
 *                   Latency is from the send to the last byte of the answer; p50 / p99 / max.
 *
 * The load generator runs in this process, the server in its own, so they share the machine's
 * cores but not an event loop. Run alone: npx tsx bench/accounts.ts
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_KDF, describeKdf } from '../server/auth/passwords.ts';

const SERVER = fileURLToPath(new URL('../server/routes/usersCrashServer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const SYNC_P99_BUDGET_MS = 20;

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface AccountsBenchResult {
  kdf: string;
  login: LatencySummary;
  sync: LatencySummary & {
    rate: number;
    seconds: number;
    /** Requests per second actually sent (the schedule may slip on a busy machine). */
    achievedRate: number;
    errors: number;
    byKind: Record<string, LatencySummary>;
  };
}

export interface AccountsBenchOptions {
  rate?: number;
  seconds?: number;
  warmupSeconds?: number;
  logins?: number;
}

function summarize(samples: number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1] ?? NaN };
}

interface Answer {
  status: number;
  body: string;
}

function client(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = (method: string, path: string, token: string | null, body?: unknown): Promise<Answer> => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({
      host: '127.0.0.1', port, method, path, agent,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  return { call, close: () => agent.destroy() };
}

async function startServer(dbPath: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, ISOBAR_TEST_DB_CONFIG: JSON.stringify({ kind: 'sqlite', path: dbPath }), ISOBAR_TEST_NO_LIMITS: '1', ISOBAR_TEST_KDF: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the account server exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
  });
  return { child, port };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchAccounts(options: AccountsBenchOptions = {}): Promise<AccountsBenchResult> {
  const rate = options.rate ?? 200;
  const seconds = options.seconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 2;
  const dir = await mkdtemp(join(tmpdir(), 'isobar-bench-accounts-'));
  const { child, port } = await startServer(join(dir, 'isobar.sqlite'));
  const { call, close } = client(port);
  try {
    const email = 'bench@example.test';
    const password = 'Bench1Password';
    const registered = await call('POST', '/users/v1/register', null, { email, password });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.body}`);
    const token = (JSON.parse(registered.body) as { token: string }).token;

    // Login latency: one at a time, after two warm-up logins.
    const loginSamples: number[] = [];
    for (let i = 0; i < (options.logins ?? 20) + 2; i++) {
      const started = performance.now();
      const answer = await call('POST', '/users/v1/login', null, { email, password });
      const ms = performance.now() - started;
      if (answer.status !== 200) throw new Error(`login: ${answer.status} ${answer.body}`);
      if (i >= 2) loginSamples.push(ms);
    }

    const fav = await call('POST', '/users/v1/data/favs', token, { type: 'fav', title: 'Bench', lat: 50, lon: 14 });
    const favId = (JSON.parse(fav.body) as { id: string }).id;
    let settingsTs = 0;
    let favsTs = 0;
    let n = 0;
    const kinds = ['settings upload', 'settings poll', 'favs poll', 'fav edit'] as const;
    const one = async (i: number): Promise<{ kind: string; ms: number; ok: boolean }> => {
      const kind = kinds[i % kinds.length];
      const started = performance.now();
      let answer: Answer;
      switch (kind) {
        case 'settings upload':
          answer = await call('POST', '/users/settings', token, { version: 4, data: { map: { value: ['sznmap', 'sat', 'winter'][i % 3], ts: Date.now() - 1000 + (n++ % 1000) } }, storeTs: settingsTs });
          if (answer.status === 200) settingsTs = (JSON.parse(answer.body) as { storeTs: number }).storeTs;
          break;
        case 'settings poll':
          answer = await call('GET', `/users/settings?storeTs=${settingsTs}`, token);
          break;
        case 'favs poll':
          answer = await call('GET', `/users/v1/data/favs?storeTs=${favsTs}`, token);
          break;
        default:
          answer = await call('PUT', `/users/v1/data/favs/${favId}`, token, { type: 'fav', title: `Bench ${i}`, lat: 50, lon: 14 });
          if (answer.status === 200) favsTs = (JSON.parse(answer.body) as { updated: number }).updated;
          break;
      }
      return { kind, ms: performance.now() - started, ok: answer.status === 200 || answer.status === 304 };
    };

    // Open loop: request i leaves at start + i / rate, answered or not.
    const run = async (count: number) => {
      const interval = 1000 / rate;
      const pending: Promise<{ kind: string; ms: number; ok: boolean }>[] = [];
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        const wait = start + i * interval - performance.now();
        if (wait >= 1) await sleep(wait);
        pending.push(one(i).catch(() => ({ kind: 'error', ms: NaN, ok: false })));
      }
      const results = await Promise.all(pending);
      return { results, elapsedS: (performance.now() - start) / 1000 };
    };
    await run(Math.round(rate * warmupSeconds));
    const { results, elapsedS } = await run(Math.round(rate * seconds));
    const ok = results.filter((r) => r.ok);
    const byKind = Object.fromEntries(kinds.map((k) => [k, summarize(ok.filter((r) => r.kind === k).map((r) => r.ms))]));
    return {
      kdf: describeKdf(DEFAULT_KDF),
      login: summarize(loginSamples),
      sync: { ...summarize(ok.map((r) => r.ms)), rate, seconds, achievedRate: results.length / elapsedS, errors: results.length - ok.length, byKind },
    };
  } finally {
    close();
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    await rm(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toFixed(2);

/** Markdown lines for bench/RESULTS.md. */
export function accountsSection(r: AccountsBenchResult): string[] {
  return [
    '## Accounts (bench/accounts.ts: a server process on loopback; SQLite WAL, every write fsynced before its answer)',
    '',
    `Login, ${r.login.count} sequential logins, ${r.kdf}: p50 ${fmt(r.login.p50Ms)} ms, p99 ${fmt(r.login.p99Ms)} ms, max ${fmt(r.login.maxMs)} ms.`,
    '',
    `Sync round trips, open loop at ${r.sync.rate} requests/s for ${r.sync.seconds} s (sent ${fmt(r.sync.achievedRate)}/s, ${r.sync.errors} errors):`,
    '',
    '| call | count | p50 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...Object.entries(r.sync.byKind).map(([kind, s]) => `| ${kind} | ${s.count} | ${fmt(s.p50Ms)} | ${fmt(s.p99Ms)} | ${fmt(s.maxMs)} |`),
    `| all | ${r.sync.count} | ${fmt(r.sync.p50Ms)} | ${fmt(r.sync.p99Ms)} | ${fmt(r.sync.maxMs)} |`,
    '',
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchAccounts();
  console.log(accountsSection(result).join('\n'));
}
