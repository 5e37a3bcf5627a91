/**
 * Starts the Isobar server: PORT (default 8080) on HOST (default 0.0.0.0), then loads the sample
 * products in the background (server/ingest/samples.ts) unless ISOBAR_ROLE=web (server/jobs/role.ts:
 * a bad role, or web or ingest without PostgreSQL, ends the process with what to set). Building lives in app.ts.
 */

import { buildApp } from './app.ts';
import { exitOnSignals } from './ops/shutdown.ts';
import { dataDirFromEnv } from './ingest/layout.ts';
import { loadSamples, samplesDirFromEnv } from './ingest/samples.ts';
import { roleFromEnv } from './jobs/role.ts';
import { storageFromEnv } from './storage/fromEnv.ts';

const DEFAULT_PORT = 8080;
const port = Number(process.env.PORT ?? DEFAULT_PORT);
const host = process.env.HOST ?? '0.0.0.0';

let role;
let storage;
try {
  role = roleFromEnv();
  // Where runs are published (ISOBAR_STORAGE_URL, else the data directory): the server's and the samples'.
  storage = await storageFromEnv(dataDirFromEnv());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const app = await buildApp({ logger: true, role, storage });
try {
  const url = await app.listen({ port, host });
  app.log.info(`Isobar is listening on ${url}`);
} catch (error) {
  app.log.error(error);
  process.exit(1);
}

// Samples are ingested by the process that ingests (role all or ingest).
const samplesDir = role.works ? await samplesDirFromEnv() : null;
if (samplesDir) {
  loadSamples(samplesDir, dataDirFromEnv(), (line) => app.log.info(line), storage).then(
    ({ loaded, present, failures }) => {
      app.log.info({ loaded: loaded.map((r) => r.product), present }, `samples from ${samplesDir}`);
      for (const run of loaded) app.runIngested(run.product);
      for (const failure of failures) app.log.warn(`sample not loaded: ${failure}`);
    },
    (error: unknown) => app.log.error({ err: error }, 'loading the samples failed'),
  );
}

// Drain, finish what is in flight, release jobs, then exit (server/ops/shutdown.ts).
exitOnSignals(app, app.shutdown);
