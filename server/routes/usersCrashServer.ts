/**
 * A server with only the account routes, for tests and benches that need a real process on a real
 * port (usersDurability.test.ts kills it with SIGKILL in the middle of writes; bench/accounts.ts
 * loads it from another process). Run: node --import tsx server/routes/usersCrashServer.ts
 *
 *   ISOBAR_TEST_DB_CONFIG  JSON DatabaseConfig (default: databaseConfigFromEnv())
 *   ISOBAR_TEST_KDF        JSON KdfParams (default: the production scrypt parameters)
 *   ISOBAR_TEST_NO_LIMITS  set: no login or register rate limits (benches)
 *
 * Prints one line `listening <port>` on stdout when it accepts connections.
 */

import Fastify from 'fastify';
import { databaseConfigFromEnv, openDatabase, type DatabaseConfig } from '../db/database.ts';
import type { KdfParams } from '../auth/passwords.ts';
import { registerAccounts } from './users.ts';

const config = process.env.ISOBAR_TEST_DB_CONFIG ? JSON.parse(process.env.ISOBAR_TEST_DB_CONFIG) as DatabaseConfig : databaseConfigFromEnv();
const kdf = process.env.ISOBAR_TEST_KDF ? JSON.parse(process.env.ISOBAR_TEST_KDF) as KdfParams : undefined;
const unlimited = process.env.ISOBAR_TEST_NO_LIMITS ? { loginAttemptsPerIp: 1e9, loginFailuresPerAccountAddress: 1e9, loginFailuresPerAccountNewAddresses: 1e9, registrationsPerIp: 1e9 } : undefined;

const db = await openDatabase(config);
const app = Fastify();
await registerAccounts(app, { database: db, kdf, limits: unlimited });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => db.close()).then(() => process.exit(0), () => process.exit(1));
  });
}
