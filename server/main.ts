/** Starts the Isobar server: PORT (default 8080) on HOST (default 0.0.0.0). Building lives in app.ts. */

import { buildApp } from './app.ts';

const DEFAULT_PORT = 8080;
const port = Number(process.env.PORT ?? DEFAULT_PORT);
const host = process.env.HOST ?? '0.0.0.0';

const app = await buildApp({ logger: true });
try {
  const url = await app.listen({ port, host });
  app.log.info(`Isobar is listening on ${url}`);
} catch (error) {
  app.log.error(error);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
