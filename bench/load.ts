/**
 * Load figures (issue 12 §2): the whole server (bench/loadServer.ts, its own process) driven on
 * loopback at fixed request rates by an open-loop generator in this process.
 *
 *   open loop      request i leaves at start + i / rate whether or not earlier ones have been
 *                  answered, and its latency counts from that scheduled time to the last byte of
 *                  the answer, so a stalled server shows in the figures instead of slowing the
 *                  load (autocannon's rate limit sends each connection's quota for a second back
 *                  to back and then waits: bursts, not a rate)
 *   warm-up        each row first runs WARMUP_SECONDS at its rates, not counted
 *
 *   rows           point forecast of the demo product at random places (none cached), 500/s
 *                  one cached data tile, 500/s; 30 distinct cached tiles, 500/s, with gzip and
 *                  without (clients that do not accept gzip get the identity bytes kept beside)
 *                  settings + collection reads and writes of one signed-in user, 200/s
 *                  the point forecast row again while uncached demo tiles are asked at 20/s
 *                  (their generation runs on worker threads): its p99 against the row alone
 *
 * Every row carries the load average when it began and the share of CPU time the hypervisor took
 * (steal) while it ran: on a shared 2-core machine, other work moves these figures. The server's
 * CPU time per request (its process, every thread, from /proc) moves much less with other work,
 * so a run on a busy machine can still be compared with one on a quiet machine.
 * Run alone: npx tsx bench/load.ts
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PRODUCTS } from '../common/catalogue/index.ts';
import { premiumDaysFrom } from '../common/entitlements.ts';
import { minifestPath } from '../common/api/products.ts';
import { tilePath } from '../common/api/tiles.ts';
import { seededRandom } from '../common/seededRandom.ts';
import { tileColumns, tileRows } from '../common/tiling.ts';
import { HOUR_MS, SECOND_MS } from '../common/time.ts';
import { parseCpuTimes, stolenShare } from './stats.ts';

const SERVER = fileURLToPath(new URL('./loadServer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const LOAD_SECONDS = 30;
export const WARMUP_SECONDS = 3;
/** Issue 12 §2 targets. */
export const FORECAST_RATE = 500;
export const FORECAST_P99_BUDGET_MS = 50;
export const TILE_RATE = 500;
export const TILE_P99_BUDGET_MS = 50;
export const ACCOUNT_RATE = 200;
export const ACCOUNT_P99_BUDGET_MS = 20;
export const UNCACHED_TILE_RATE = 20;
/** The forecast's p99 beside uncached tiles, at most this many times its p99 alone. */
export const MIXED_P99_RATIO_BUDGET = 2;
/** An answer later than this counts as an error. */
const REQUEST_TIMEOUT_MS = 10_000;
const CACHED_TILES = 30;
/** What a browser sends. */
const BROWSER_ENCODINGS = 'gzip, deflate, br';

export interface LatencyRow {
  what: string;
  rate: number;
  seconds: number;
  /** Requests per second actually sent (the schedule may slip on a busy machine). */
  achievedRate: number;
  count: number;
  /** Answers by status (0: no answer: connection error or timeout). */
  statuses: Record<string, number>;
  /** Answers other than 200 and 304. */
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** 1-minute load average when the row began. */
  loadAvg: number;
  /** Share of the CPU time the hypervisor took while the row ran; null where /proc/stat is not readable. */
  steal: number | null;
  /** CPU time of the server process (all its threads) per request of the rows measured together, ms; null without /proc. */
  serverCpuMs: number | null;
  /** How late the server's event loop ran over the row (perf_hooks event-loop delay), p99 and max, ms. */
  serverLoopDelay: { p99Ms: number; maxMs: number };
}

export interface LoadBenchResult {
  seconds: number;
  warmupSeconds: number;
  forecast: LatencyRow;
  oneTile: LatencyRow;
  cachedTiles: LatencyRow;
  cachedTilesIdentity: LatencyRow;
  accounts: LatencyRow;
  /** The forecast row again, beside `uncachedTiles`. */
  forecastBesideTiles: LatencyRow;
  uncachedTiles: LatencyRow;
}

export interface Call {
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sees the answer (the account rows keep their storeTs). */
  onAnswer?(status: number, body: string): void;
}

interface Answer {
  status: number;
  body: string;
}

interface Sample {
  ms: number;
  status: number;
}

export function client(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  /** Reads the answer's body only when `keepBody` (the account rows): the generator must stay cheap. */
  const call = ({ method = 'GET', path, headers = {}, body }: Call, keepBody = true): Promise<Answer> => new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({
      host: '127.0.0.1', port, method, path, agent, timeout: REQUEST_TIMEOUT_MS,
      headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (keepBody) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString() : '' }));
      res.on('error', () => resolve({ status: 0, body: '' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(payload);
  });
  return { call, close: () => agent.destroy() };
}

type Caller = ReturnType<typeof client>['call'];

/** Open loop: call i leaves at start + i / rate, answered or not; latency from that time. */
export async function openLoop(call: Caller, rate: number, seconds: number, next: (i: number) => Call): Promise<{ samples: Sample[]; elapsedS: number }> {
  const count = Math.round(rate * seconds);
  const interval = SECOND_MS / rate;
  const pending: Promise<Sample>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    const c = next(i);
    // Late: from the scheduled time (the wait counts); up to 1 ms early (not worth a sleep): from now.
    const from = Math.min(due, performance.now());
    pending.push(call(c, c.onAnswer !== undefined).then(({ status, body }) => {
      c.onAnswer?.(status, body);
      return { ms: performance.now() - from, status };
    }));
  }
  const sentS = (performance.now() - start) / SECOND_MS;
  return { samples: await Promise.all(pending), elapsedS: Math.max(sentS, seconds - 1 / rate) };
}

export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

const cpuTimes = () => readFile('/proc/stat', 'utf8').then(parseCpuTimes, () => null);
/** Clock ticks per second of /proc times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** CPU time a process has used, ms (user + system, all its threads), or null. */
async function processCpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields || fields.length < 13) return null;
  return ((Number(fields[11]) + Number(fields[12])) * SECOND_MS) / USER_HZ;
}

interface Durations {
  seconds: number;
  warmupSeconds: number;
}

/** Runs the loops together, a warm-up first; one row per loop. */
async function measure(call: Caller, server: Server, loops: { what: string; rate: number; next: (i: number) => Call }[], { seconds, warmupSeconds }: Durations): Promise<LatencyRow[]> {
  await Promise.all(loops.map((l) => openLoop(call, l.rate, warmupSeconds, l.next)));
  const loadAvg = loadavg()[0];
  const before = await cpuTimes();
  const serverBefore = await processCpuMs(server.child.pid);
  await server.loopDelay(); // from now
  // The warm-up's calls were numbered from 0: go on from where it stopped.
  const runs = await Promise.all(loops.map((l) => {
    const offset = Math.round(l.rate * warmupSeconds);
    return openLoop(call, l.rate, seconds, (i) => l.next(offset + i));
  }));
  const steal = stolenShare(before, await cpuTimes());
  const serverAfter = await processCpuMs(server.child.pid);
  const serverLoopDelay = await server.loopDelay();
  const requests = runs.reduce((sum, r) => sum + r.samples.length, 0);
  const serverCpuMs = serverBefore === null || serverAfter === null ? null : (serverAfter - serverBefore) / requests;
  return runs.map(({ samples, elapsedS }, k) => {
    const statuses: Record<string, number> = {};
    for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    return {
      what: loops[k].what, rate: loops[k].rate, seconds, achievedRate: samples.length / elapsedS, count: samples.length, statuses,
      errors: samples.filter((s) => s.status !== 200 && s.status !== 304).length,
      p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? NaN, loadAvg, steal, serverCpuMs, serverLoopDelay,
    };
  });
}

interface Server {
  child: ChildProcess;
  port: number;
  /** The server's event-loop delay since the last call, p99 and max, ms. */
  loopDelay(): Promise<{ p99Ms: number; maxMs: number }>;
}

async function startServer(dir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT, env: { ...process.env, ISOBAR_BENCH_DIR: dir }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const delays: ((answer: { p99Ms: number; maxMs: number }) => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
    lines.on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) resolve(Number(listening[1]));
      const delay = /^delay (\S+) (\S+)$/.exec(line);
      if (delay) delays.shift()?.({ p99Ms: Number(delay[1]), maxMs: Number(delay[2]) });
    });
  });
  const loopDelay = () => new Promise<{ p99Ms: number; maxMs: number }>((resolve) => {
    delays.push(resolve);
    child.stdin!.write('delay\n');
  });
  return { child, port, loopDelay };
}

/** Places spread over the inhabited latitudes, three decimals (as the app asks), each one new. */
function randomPlaces(seed: number): (i: number) => string {
  const random = seededRandom(seed);
  return () => `${(random() * 130 - 60).toFixed(3)}/${(random() * 360 - 180).toFixed(3)}`;
}

export interface LoadBenchOptions {
  /** Measured seconds per row (default LOAD_SECONDS). */
  seconds?: number;
  /** Warm-up seconds before each row (default WARMUP_SECONDS). */
  warmupSeconds?: number;
  /** Multiplies every rate (default 1; a test runs the rows at a fraction). */
  rateScale?: number;
}

export async function benchLoad(options: LoadBenchOptions = {}): Promise<LoadBenchResult> {
  const durations = { seconds: options.seconds ?? LOAD_SECONDS, warmupSeconds: options.warmupSeconds ?? WARMUP_SECONDS };
  const rate = (perSecond: number) => Math.max(1, Math.round(perSecond * (options.rateScale ?? 1)));
  const forecastRate = rate(FORECAST_RATE);
  const tileRate = rate(TILE_RATE);
  const uncachedRate = rate(UNCACHED_TILE_RATE);
  const accountRate = rate(ACCOUNT_RATE);
  const dir = await mkdtemp(join(tmpdir(), 'isobar-bench-load-'));
  const server = await startServer(dir);
  const { child, port } = server;
  const { call, close } = client(port);
  try {
    const minifest = await call({ path: minifestPath(PRODUCTS.demo.directory) });
    if (minifest.status !== 200) throw new Error(`demo minifest: ${minifest.status} ${minifest.body}`);
    const refTime = Date.parse((JSON.parse(minifest.body) as { ref: string }).ref);
    const tile = (validTime: number, z: number, x: number, y: number, file: string) => tilePath({
      directory: PRODUCTS.demo.directory, refTime, validTime, z, x, y, file, level: 'surface', suffix: PRODUCTS.demo.fileSuffix,
    });

    // Point forecasts at places never asked before: each is computed.
    const place = randomPlaces(20261126);
    const forecastLoop = { what: `point forecast, random places, ${forecastRate}/s`, rate: forecastRate, next: () => ({ path: `/forecast/point/demo/v2.9/${place(0)}`, headers: { 'accept-encoding': BROWSER_ENCODINGS } }) };
    const [forecast] = await measure(call, server, [forecastLoop], durations);

    // Uncached demo tiles: every free valid time (before the premium days) at data zooms 0 and 1,
    // not one of them generated before; the same forecast loop beside them.
    const premiumFrom = premiumDaysFrom(PRODUCTS.demo, refTime) ?? refTime + 6 * 24 * HOUR_MS;
    const cachedValid = refTime + 3 * HOUR_MS;
    const uncached: string[] = [];
    for (let validTime = refTime; validTime < premiumFrom; validTime += HOUR_MS) {
      if (validTime === cachedValid) continue;
      for (const z of [1, 0]) for (let x = 0; x < tileColumns(z); x++) for (let y = 0; y < tileRows(z); y++) uncached.push(tile(validTime, z, x, y, 'wind'));
    }
    const tilesNeeded = Math.round(uncachedRate * (durations.seconds + durations.warmupSeconds));
    if (uncached.length < tilesNeeded) throw new Error(`only ${uncached.length} uncached tiles for ${tilesNeeded} requests`);
    const [forecastBesideTiles, uncachedTiles] = await measure(call, server, [
      { ...forecastLoop, what: `point forecast, random places, ${forecastRate}/s, beside uncached demo tiles at ${uncachedRate}/s` },
      { what: `uncached demo tiles, ${uncachedRate}/s (beside the forecast)`, rate: uncachedRate, next: (i) => ({ path: uncached[i], headers: { 'accept-encoding': BROWSER_ENCODINGS } }) },
    ], durations);

    // Cached tiles: 30 of one valid time (data zooms 0 and 1: 10 tile sets, 3 files each), generated once first.
    const cached: string[] = [];
    for (const file of ['wind', 'temp', 'pressure']) {
      for (const z of [0, 1]) for (let x = 0; x < tileColumns(z); x++) for (let y = 0; y < tileRows(z); y++) cached.push(tile(cachedValid, z, x, y, file));
    }
    if (cached.length !== CACHED_TILES) throw new Error(`expected ${CACHED_TILES} cached tiles, made ${cached.length}`);
    for (const path of cached) {
      const answer = await call({ path, headers: { 'accept-encoding': 'gzip' } });
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
    }
    const [oneTile] = await measure(call, server, [{ what: `one cached data tile, ${tileRate}/s`, rate: tileRate, next: () => ({ path: cached[0], headers: { 'accept-encoding': BROWSER_ENCODINGS } }) }], durations);
    const [cachedTiles] = await measure(call, server, [{ what: `${CACHED_TILES} distinct cached tiles, ${tileRate}/s`, rate: tileRate, next: (i) => ({ path: cached[i % CACHED_TILES], headers: { 'accept-encoding': BROWSER_ENCODINGS } }) }], durations);
    const [cachedTilesIdentity] = await measure(call, server, [{ what: `${CACHED_TILES} distinct cached tiles, ${tileRate}/s, client without gzip`, rate: tileRate, next: (i) => ({ path: cached[i % CACHED_TILES] }) }], durations);

    // One signed-in user syncing: settings upload and poll, favourites poll and edit.
    const registered = await call({ method: 'POST', path: '/users/v1/register', body: { email: 'load@example.test', password: 'Bench1Password' } });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.body}`);
    const auth = { authorization: `Bearer ${(JSON.parse(registered.body) as { token: string }).token}`, 'accept-encoding': BROWSER_ENCODINGS };
    const fav = await call({ method: 'POST', path: '/users/v1/data/favs', headers: auth, body: { type: 'fav', title: 'Bench', lat: 50, lon: 14 } });
    if (fav.status !== 201) throw new Error(`favourite: ${fav.status} ${fav.body}`);
    const favId = (JSON.parse(fav.body) as { id: string }).id;
    let settingsTs = 0;
    let favsTs = 0;
    const maps = ['sznmap', 'sat', 'winter'];
    const [accounts] = await measure(call, server, [{
      what: `settings + favourites read and write, one signed-in user, ${accountRate}/s`,
      rate: accountRate,
      next: (i): Call => {
        switch (i % 4) {
          case 0: return {
            method: 'POST', path: '/users/settings', headers: auth,
            body: { version: 4, data: { map: { value: maps[i % 3], ts: Date.now() - SECOND_MS + (i % 1000) } }, storeTs: settingsTs },
            onAnswer: (status, body) => { if (status === 200) settingsTs = (JSON.parse(body) as { storeTs: number }).storeTs; },
          };
          case 1: return { path: `/users/settings?storeTs=${settingsTs}`, headers: auth };
          case 2: return { path: `/users/v1/data/favs?storeTs=${favsTs}`, headers: auth };
          default: return {
            method: 'PUT', path: `/users/v1/data/favs/${favId}`, headers: auth, body: { type: 'fav', title: `Bench ${i}`, lat: 50, lon: 14 },
            onAnswer: (status, body) => { if (status === 200) favsTs = (JSON.parse(body) as { updated: number }).updated; },
          };
        }
      },
    }], durations);

    return { ...durations, forecast, oneTile, cachedTiles, cachedTilesIdentity, accounts, forecastBesideTiles, uncachedTiles };
  } finally {
    close();
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    await rm(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : String(n));
const pct = (n: number | null) => (n === null ? 'n/a' : `${(n * 100).toFixed(1)} %`);
const statusText = (statuses: Record<string, number>) => Object.entries(statuses).map(([s, n]) => `${s === '0' ? 'no answer' : s}: ${n}`).join(', ');

/** Budget checks of bench/RESULTS.md: what, budget, measured, met. */
export function loadChecks(r: LoadBenchResult): { what: string; budget: string; measured: string; ok: boolean }[] {
  const cpu = (row: LatencyRow) => `load ${fmt(row.loadAvg, 2)}, steal ${pct(row.steal)}`;
  const latency = (row: LatencyRow, budgetMs: number) => ({
    what: `${row.what}, p99 (p50 ${fmt(row.p50Ms, 2)} ms; ${cpu(row)})`,
    budget: `0 errors, p99 <= ${budgetMs} ms`,
    measured: `${fmt(row.p99Ms, 2)} ms, ${row.errors} errors, sent ${fmt(row.achievedRate)}/s`,
    ok: row.errors === 0 && row.p99Ms <= budgetMs,
  });
  const ratio = r.forecastBesideTiles.p99Ms / r.forecast.p99Ms;
  return [
    latency(r.forecast, FORECAST_P99_BUDGET_MS),
    latency(r.oneTile, TILE_P99_BUDGET_MS),
    latency(r.cachedTiles, TILE_P99_BUDGET_MS),
    latency(r.cachedTilesIdentity, TILE_P99_BUDGET_MS),
    latency(r.accounts, ACCOUNT_P99_BUDGET_MS),
    {
      what: `point forecast p99 beside uncached demo tiles at ${r.uncachedTiles.rate}/s, against alone (${cpu(r.forecastBesideTiles)})`,
      budget: `<= ${MIXED_P99_RATIO_BUDGET}x alone, 0 errors`,
      measured: `${fmt(ratio, 2)}x (${fmt(r.forecastBesideTiles.p99Ms, 2)} / ${fmt(r.forecast.p99Ms, 2)} ms), ${r.forecastBesideTiles.errors} errors; tiles: ${statusText(r.uncachedTiles.statuses)}`,
      ok: r.forecastBesideTiles.errors === 0 && ratio <= MIXED_P99_RATIO_BUDGET,
    },
  ];
}

/** Markdown lines for bench/RESULTS.md. */
export function loadSection(r: LoadBenchResult): string[] {
  const rows = [r.forecast, r.forecastBesideTiles, r.uncachedTiles, r.oneTile, r.cachedTiles, r.cachedTilesIdentity, r.accounts];
  return [
    '## Load (bench/load.ts: the whole server in its own process, an open-loop generator on loopback)',
    '',
    `Each row: ${r.warmupSeconds} s of warm-up at its rates, then ${r.seconds} s measured; latency from each request's scheduled`,
    'time to the last byte of its answer. Browser-like clients send `Accept-Encoding: gzip, deflate, br`. Uncached demo tiles',
    'are generated on worker threads (server/demo/demoTiles.ts); a full queue answers 503 with Retry-After. Server CPU:',
    "the server process's CPU time (every thread) over the row divided by its requests; the two rows measured together share it.",
    'Event-loop delay: how late the server ran its timers over the row (1 ms resolution): a stalled event loop shows here, a busy machine mostly in latency alone.',
    '',
    '| load | sent /s | answers | p50 ms | p99 ms | max ms | server CPU ms / request | server event-loop delay p99 / max ms | load avg at start | steal |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.what} | ${fmt(row.achievedRate)} | ${statusText(row.statuses)} | ${fmt(row.p50Ms, 2)} | ${fmt(row.p99Ms, 2)} | ${fmt(row.maxMs, 2)} | ${row.serverCpuMs === null ? 'n/a' : fmt(row.serverCpuMs, 2)} | ${fmt(row.serverLoopDelay.p99Ms, 1)} / ${fmt(row.serverLoopDelay.maxMs, 1)} | ${fmt(row.loadAvg, 2)} | ${pct(row.steal)} |`),
    '',
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = process.env.ISOBAR_LOAD_SECONDS ? Number(process.env.ISOBAR_LOAD_SECONDS) : undefined;
  const result = await benchLoad({ seconds });
  console.log(loadSection(result).join('\n'));
  for (const c of loadChecks(result)) console.log(`${c.ok ? 'met   ' : 'MISSED'} ${c.what}: ${c.measured} (budget ${c.budget})`);
}
