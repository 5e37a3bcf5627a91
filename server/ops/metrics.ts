/**
 * The server's Prometheus metrics (prom-client), served at GET /metrics (server/ops/routes.ts).
 * One registry per process; every metric the server exports is declared here, once, so the names
 * and labels are one list a dashboard can be written against:
 *
 *   isobar_http_requests_total{method,route,status}       requests answered, by route pattern
 *   isobar_http_request_duration_seconds{method,route}    time to answer (histogram)
 *   isobar_tile_cache_total{cache,result}                 tile cache look-ups: hit | miss
 *   isobar_ingest_duration_seconds{product}               a run's ingest, download excluded (histogram)
 *   isobar_jobs_queued{queue}                             jobs waiting in a queue (gauge, set when read)
 *   isobar_source_last_success_seconds{source}            when a live source last published (unix s)
 *   isobar_source_data_age_seconds{source}                age of the newest data a source published
 *
 * plus prom-client's default process metrics (CPU, memory, event-loop lag, GC), prefixed isobar_.
 */

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'isobar_' });

/** Request latencies, seconds: tiles from memory answer in well under a millisecond, a cold point forecast in tens. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Ingest durations, seconds: a sample run in seconds, a full global run in minutes. */
const INGEST_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 2400];

export const httpRequests = new Counter({
  name: 'isobar_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'isobar_http_request_duration_seconds',
  help: 'Time from request to response, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const tileCache = new Counter({
  name: 'isobar_tile_cache_total',
  help: 'Tile cache look-ups by cache (stored: published runs, demo: the generated product) and result (hit, miss)',
  labelNames: ['cache', 'result'] as const,
  registers: [registry],
});

export const ingestDuration = new Histogram({
  name: 'isobar_ingest_duration_seconds',
  help: 'Time to ingest a run (download excluded), by product',
  labelNames: ['product'] as const,
  buckets: INGEST_BUCKETS,
  registers: [registry],
});

export const jobsQueued = new Gauge({
  name: 'isobar_jobs_queued',
  help: 'Jobs waiting in a queue (read when scraped)',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const sourceLastSuccess = new Gauge({
  name: 'isobar_source_last_success_seconds',
  help: 'When a live source last published new data, unix seconds',
  labelNames: ['source'] as const,
  registers: [registry],
});

export const sourceDataAge = new Gauge({
  name: 'isobar_source_data_age_seconds',
  help: 'Age of the newest data a live source published (reference or observation time), seconds',
  labelNames: ['source'] as const,
  registers: [registry],
});

/** Called before each scrape: gauges whose value is read from elsewhere (queue depths, data ages). */
const collectors = new Set<() => Promise<void> | void>();

/** Registers a function that sets gauges before each scrape; returns its removal. */
export function onScrape(collect: () => Promise<void> | void): () => void {
  collectors.add(collect);
  return () => collectors.delete(collect);
}

/** The text exposition of every metric, collectors run first (a failing one is skipped, its gauges stay as they were). */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  await Promise.all([...collectors].map(async (collect) => {
    try {
      await collect();
    } catch {
      // A gauge that cannot be read now keeps its last value; the scrape still answers.
    }
  }));
  return { contentType: registry.contentType, body: await registry.metrics() };
}
