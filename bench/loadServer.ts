/**
 * The server the load rows of bench/load.ts drive: the whole app as server/app.ts builds it (data
 * routes with the demo product, accounts over a SQLite file), in its own process so that the load
 * generator does not share its event loop. No static files, no live sources, no background prewarm
 * (the bench warms what each row needs). Run: node --import tsx bench/loadServer.ts
 *
 *   ISOBAR_BENCH_DIR  a directory of the bench's own: the SQLite file and the Web Push keys go there
 *
 * Prints one line `listening <port>` on stdout when it accepts connections. For each line `delay`
 * on stdin it prints `delay <p99 ms> <max ms>`: how late its event loop ran timers since the last
 * such line (perf_hooks.monitorEventLoopDelay), which tells a stalled event loop from a busy machine.
 */

import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { buildApp } from '../server/app.ts';

const dir = process.env.ISOBAR_BENCH_DIR;
if (!dir) throw new Error('ISOBAR_BENCH_DIR must name a directory for the bench server');
process.env.ISOBAR_DATA_DIR = dir;

const app = await buildApp({
  logger: false, distDir: null, prewarm: false, dataDir: null, liveSources: null,
  accounts: { database: { kind: 'sqlite', path: join(dir, 'isobar.sqlite') } },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'delay') return;
  process.stdout.write(`delay ${delay.percentile(99) / 1e6} ${delay.max / 1e6}\n`);
  delay.reset();
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
