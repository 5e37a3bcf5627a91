/**
 * A second app server for the render cases that need the demo product at a fixed time
 * (tests/render.spec.ts, case.json `clock`): the demo product's run and values follow the server's
 * clock, so a case of an overlay only the demo product offers (the accumulations) is repeatable
 * only with the clock held; and observations from the past (tests/capAlerts.spec.ts: warnings that
 * expired years ago are current at their own time). The whole app as server/app.ts builds it, with
 * the built UI (ISOBAR_DIST_DIR), no live sources, no prewarm, the demo product only unless a data
 * directory is given. Start it with startFixedClockServer (tests/fixedClock.ts).
 * Run: ISOBAR_FIXED_CLOCK=<ISO time> node --import tsx tests/fixedClockServer.ts
 *
 *   ISOBAR_FIXED_CLOCK   the server's time, an ISO 8601 UTC time (e.g. 2026-01-15T12:00:00Z)
 *   ISOBAR_FIXED_DIR     a directory of its own for the accounts' SQLite file
 *   ISOBAR_FIXED_DATA_DIR  optional: the data directory it serves (observations published there)
 *
 * Prints one line `listening <port>` on stdout when it accepts connections.
 */

import { join } from 'node:path';
import { buildApp } from '../server/app.ts';

const clock = Date.parse(process.env.ISOBAR_FIXED_CLOCK ?? '');
if (!Number.isFinite(clock)) throw new Error(`ISOBAR_FIXED_CLOCK must be an ISO time, not ${JSON.stringify(process.env.ISOBAR_FIXED_CLOCK)}`);
const dir = process.env.ISOBAR_FIXED_DIR;
if (!dir) throw new Error('ISOBAR_FIXED_DIR must name a directory for the server\'s database');

const app = await buildApp({
  logger: false, prewarm: false, dataDir: process.env.ISOBAR_FIXED_DATA_DIR || null, liveSources: null, obs: { sources: [] }, now: () => clock,
  accounts: { database: { kind: 'sqlite', path: join(dir, 'isobar.sqlite') } },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
