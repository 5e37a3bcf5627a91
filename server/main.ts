/**
 * Starts the Isobar server: PORT (default 8080) on HOST (default 0.0.0.0), then loads the sample
 * products in the background (server/ingest/samples.ts). Building lives in app.ts.
 */

import { buildApp } from './app.ts';
import { dataDirFromEnv } from './ingest/layout.ts';
import { loadSamples, samplesDirFromEnv } from './ingest/samples.ts';
import { storageFromEnv } from './storage/fromEnv.ts';

const DEFAULT_PORT = 8080;
const port = Number(process.env.PORT ?? DEFAULT_PORT);
const host = process.env.HOST ?? '0.0.0.0';

// Where runs are published (ISOBAR_STORAGE_URL, else the data directory): the server's and the samples'.
const storage = await storageFromEnv(dataDirFromEnv());
const app = await buildApp({ logger: true, storage });
try {
  const url = await app.listen({ port, host });
  app.log.info(`Isobar is listening on ${url}`);
} catch (error) {
  app.log.error(error);
  process.exit(1);
}

const samplesDir = await samplesDirFromEnv();
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
