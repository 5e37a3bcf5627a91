/**
 * Several processes (issue 17 targets), on loopback, in one run:
 *
 *   local     one server (role all) over the local data directory: 30 cached tiles of a published
 *             run (the GFS 2.5° sample, data zooms 0 and 1), TILE_RATE requests/s
 *   s3        the same server over S3 (s3rver, server/storage/testing.ts): the same tiles, the same
 *             rate. Target: its p50 and p99 within S3_RATIO_BUDGET x the local row's
 *   cluster   two web processes over S3 behind HAProxy (tests/cluster.ts), CLUSTER_RATE
 *             requests/s through the balancer. Target: 0 errors, p99 <= CLUSTER_P99_BUDGET_MS.
 *             Needs PostgreSQL (ISOBAR_TEST_PG_URL, as the tests) and haproxy; without them the
 *             row says why it was not measured
 *
 * The run is ingested once into each store by the ingest itself (server/ingest/ingest.ts), as an
 * ingest process publishes it. Each row: WARMUP_SECONDS at its rate, then SECONDS measured, with
 * the open-loop generator of bench/load.ts (latency from each request's scheduled time).
 * Run alone: npx tsx bench/cluster.ts
 */

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PRODUCTS } from '../common/catalogue/index.ts';
import { minifestPath, type MinifestAnswer } from '../common/api/products.ts';
import { tilePath } from '../common/api/tiles.ts';
import { tileColumns, tileRows } from '../common/tiling.ts';
import { ingestFiles } from '../server/ingest/ingest.ts';
import { SAMPLE, tempDir } from '../server/ingest/testing.ts';
import { startTestS3 } from '../server/storage/testing.ts';
import { dropSchema } from '../server/db/testing.ts';
import { haproxyPresent, killProcess, startHaproxy, startServerProcess, until, type ServerProcess } from '../tests/cluster.ts';
import { client, openLoop, percentile, type Call } from './load.ts';

export const TILE_RATE = 500;
export const CLUSTER_RATE = 1000;
export const CLUSTER_P99_BUDGET_MS = 50;
export const S3_RATIO_BUDGET = 2;
const SECONDS = 10;
const WARMUP_SECONDS = 3;
const PRODUCT = PRODUCTS['gfs2p5-20170322'];
/** Tile files asked (each at data zooms 0 and 1: 10 tiles a file). */
const FILES = ['wind', 'temp', 'pressure'];
const BASE_PORT = Number(process.env.ISOBAR_BENCH_CLUSTER_PORT ?? 8730);

export interface TileRow {
  what: string;
  rate: number;
  achievedRate: number;
  count: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  loadAvg: number;
}

export interface ClusterBenchResult {
  local: TileRow;
  s3: TileRow;
  /** Null with the reason when PostgreSQL or haproxy is missing. */
  cluster: TileRow | { skipped: string };
}

async function tileRow(port: number, what: string, rate: number, paths: readonly string[]): Promise<TileRow> {
  const { call, close } = client(port);
  try {
    const next = (i: number): Call => ({ path: paths[i % paths.length], headers: { 'accept-encoding': 'gzip, deflate, br' } });
    // Every tile once, then the warm-up: the row measures tiles kept in memory.
    for (const path of paths) {
      const answer = await call({ path, headers: { 'accept-encoding': 'gzip' } });
      if (answer.status !== 200) throw new Error(`${what}: ${path} answered ${answer.status} ${answer.body}`);
    }
    await openLoop(call, rate, WARMUP_SECONDS, next);
    const loadAvg = loadavg()[0];
    const { samples, elapsedS } = await openLoop(call, rate, SECONDS, next);
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    return {
      what, rate, achievedRate: samples.length / elapsedS, count: samples.length, loadAvg,
      errors: samples.filter((s) => s.status !== 200).length,
      p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? NaN,
    };
  } finally {
    close();
  }
}

/** The 30 tile paths of the run's first step that a server publishing `minifest` serves. */
function tilePaths(minifest: MinifestAnswer): string[] {
  const refTime = Date.parse(minifest.ref);
  const paths: string[] = [];
  for (const file of FILES) {
    for (const z of [0, 1]) {
      for (let x = 0; x < tileColumns(z); x++) {
        for (let y = 0; y < tileRows(z); y++) {
          paths.push(tilePath({ directory: PRODUCT.directory, refTime, validTime: refTime, z, x, y, file, level: 'surface', suffix: PRODUCT.fileSuffix }));
        }
      }
    }
  }
  return paths;
}

async function minifestOf(base: string): Promise<MinifestAnswer> {
  const answer = await fetch(`${base}${minifestPath(PRODUCT.directory)}`);
  if (!answer.ok) throw new Error(`${base}: the sample's minifest answered ${answer.status}`);
  return await answer.json() as MinifestAnswer;
}

/** The log lines of a web server's start-up work (server/routes/labels.ts, server/demo). */
const START_UP_WORK = ['"city labels prewarmed"', '"search names read"'];
const START_UP_TIMEOUT_MS = 120_000;

export async function benchCluster(log: (line: string) => void = () => {}): Promise<ClusterBenchResult> {
  const work = await tempDir('isobar-bench-cluster-');
  const s3 = await startTestS3();
  const prefix = `bench_${randomBytes(4).toString('hex')}`;
  const processes: ServerProcess[] = [];
  const pgUrl = process.env.ISOBAR_TEST_PG_URL?.trim();
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | null = null;
  try {
    log('cluster bench: ingesting the GFS 2.5° sample into the data directory and into S3');
    const localDir = join(work.dir, 'local');
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: localDir });
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: join(work.dir, 'ingest'), storage: s3.store(prefix) });

    const quiet = { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const server = async (name: string, port: number, env: Record<string, string>) => {
      const logFile = join(work.dir, `${name}.log`);
      const started = await startServerProcess(name, port, logFile, { ...quiet, ...env });
      processes.push(started);
      // The rows measure a server at work, not one still doing its start-up work (labels, demo
      // tiles, the search's names in a thread): each logs a line when it is done.
      await until(`${name} has done its start-up work`, async () => {
        const text = await readFile(logFile, 'utf8').catch(() => '');
        return START_UP_WORK.every((line) => text.includes(line));
      }, START_UP_TIMEOUT_MS);
      return started;
    };
    const local = await server('local', BASE_PORT, { ISOBAR_DATA_DIR: localDir, ISOBAR_DB_PATH: join(work.dir, 'local.sqlite') });
    const paths = tilePaths(await minifestOf(local.base));
    log('cluster bench: local data directory');
    const localRow = await tileRow(local.port, `30 cached tiles, one server, local data directory, ${TILE_RATE}/s`, TILE_RATE, paths);
    await killProcess(local.child, 'SIGTERM');

    const s3Env = s3.env(prefix) as Record<string, string>;
    const overS3 = await server('s3', BASE_PORT + 1, { ...s3Env, ISOBAR_DATA_DIR: join(work.dir, 's3'), ISOBAR_DB_PATH: join(work.dir, 's3.sqlite') });
    log('cluster bench: S3');
    const s3Row = await tileRow(overS3.port, `30 cached tiles, one server, S3 (s3rver), ${TILE_RATE}/s`, TILE_RATE, paths);
    await killProcess(overS3.child, 'SIGTERM');

    let cluster: ClusterBenchResult['cluster'];
    if (!pgUrl) cluster = { skipped: 'no PostgreSQL (set ISOBAR_TEST_PG_URL)' };
    else if (!haproxyPresent()) cluster = { skipped: 'no haproxy (Debian package haproxy)' };
    else {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${prefix}`);
      await admin.end();
      const env = {
        ...s3Env, ISOBAR_ROLE: 'web', DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${prefix}`)}`, ISOBAR_JOBS_SCHEMA: `${prefix}_jobs`,
      };
      const web = [];
      for (const i of [1, 2]) web.push(await server(`web${i}`, BASE_PORT + 1 + i, { ...env, ISOBAR_DATA_DIR: join(work.dir, `web${i}`) }));
      balancer = await startHaproxy(BASE_PORT + 4, web, work.dir, join(work.dir, 'haproxy.log'));
      log('cluster bench: two web processes behind HAProxy');
      cluster = await tileRow(BASE_PORT + 4, `30 cached tiles, two web processes over S3 behind HAProxy, ${CLUSTER_RATE}/s`, CLUSTER_RATE, paths);
    }
    return { local: localRow, s3: s3Row, cluster };
  } finally {
    if (balancer) await killProcess(balancer.child, 'SIGTERM');
    await Promise.all(processes.map((p) => killProcess(p.child, 'SIGTERM')));
    await s3.close();
    if (pgUrl) await dropSchema(pgUrl, prefix, `${prefix}_jobs`);
    await work.remove();
  }
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : String(n));

/** Budget checks of bench/RESULTS.md: what, budget, measured, met. */
export function clusterChecks(r: ClusterBenchResult): { what: string; budget: string; measured: string; ok: boolean }[] {
  const p50Ratio = r.s3.p50Ms / r.local.p50Ms;
  const p99Ratio = r.s3.p99Ms / r.local.p99Ms;
  const checks = [{
    what: `cached tiles over S3 against the local data directory, ${TILE_RATE}/s, same run (p50 ${fmt(r.s3.p50Ms, 2)} / ${fmt(r.local.p50Ms, 2)} ms)`,
    budget: `<= ${S3_RATIO_BUDGET}x, 0 errors`,
    measured: `p50 ${fmt(p50Ratio, 2)}x, p99 ${fmt(p99Ratio, 2)}x (${fmt(r.s3.p99Ms, 2)} / ${fmt(r.local.p99Ms, 2)} ms), ${r.s3.errors + r.local.errors} errors`,
    ok: p50Ratio <= S3_RATIO_BUDGET && p99Ratio <= S3_RATIO_BUDGET && r.s3.errors + r.local.errors === 0,
  }];
  const c = r.cluster;
  checks.push('skipped' in c
    ? { what: `cached tiles through two web processes, ${CLUSTER_RATE}/s`, budget: `0 errors, p99 <= ${CLUSTER_P99_BUDGET_MS} ms`, measured: `not measured: ${c.skipped}`, ok: false }
    : {
      what: `${c.what}, p99 (p50 ${fmt(c.p50Ms, 2)} ms; load ${fmt(c.loadAvg, 2)})`,
      budget: `0 errors, p99 <= ${CLUSTER_P99_BUDGET_MS} ms`,
      measured: `${fmt(c.p99Ms, 2)} ms, ${c.errors} errors, sent ${fmt(c.achievedRate)}/s`,
      ok: c.errors === 0 && c.p99Ms <= CLUSTER_P99_BUDGET_MS,
    });
  return checks;
}

/** Markdown lines for bench/RESULTS.md. */
export function clusterSection(r: ClusterBenchResult): string[] {
  const rows = [r.local, r.s3, ...('skipped' in r.cluster ? [] : [r.cluster])];
  return [
    '## Several processes (bench/cluster.ts: object storage and two web processes behind HAProxy, loopback)',
    '',
    `Each row: every tile asked once, ${WARMUP_SECONDS} s of warm-up at its rate, then ${SECONDS} s measured with the open-loop generator of bench/load.ts.`,
    'The S3 server (s3rver) and HAProxy run on the same two cores as the servers and the generator.',
    ...('skipped' in r.cluster ? ['', `The two-process row was not measured: ${r.cluster.skipped}.`] : []),
    '',
    '| load | sent /s | requests | errors | p50 ms | p99 ms | max ms | load avg at start |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.what} | ${fmt(row.achievedRate)} | ${row.count} | ${row.errors} | ${fmt(row.p50Ms, 2)} | ${fmt(row.p99Ms, 2)} | ${fmt(row.maxMs, 2)} | ${fmt(row.loadAvg, 2)} |`),
    '',
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchCluster(console.log);
  console.log(clusterSection(result).join('\n'));
  for (const c of clusterChecks(result)) console.log(`${c.ok ? 'met   ' : 'MISSED'} ${c.what}: ${c.measured} (budget ${c.budget})`);
}
