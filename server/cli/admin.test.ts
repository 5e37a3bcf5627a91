import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { AccountStore } from '../auth/accounts.ts';
import { isPremium } from '../../common/entitlements.ts';
import { TEST_KDF } from '../routes/testing.ts';
import { parseAdminArgs, runAdmin, USAGE } from './admin.ts';
import { DAY_MS } from '../../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 12);
describe('npm run admin -- premium', () => {
  let made: TestDatabase;
  let db: Database;
  let accounts: AccountStore;
  let lines: { out: string[]; err: string[] };
  const io = () => ({ out: (l: string) => void lines.out.push(l), err: (l: string) => void lines.err.push(l) });

  beforeEach(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    accounts = new AccountStore(db, { kdf: TEST_KDF, now: () => NOW });
    await accounts.register({ email: 'ann@example.test', password: 'Correct1Horse', username: 'ann' });
    lines = { out: [], err: [] };
  });
  afterEach(async () => {
    await db.close();
    await made.cleanup();
  });

  it.each([
    [[], USAGE],
    [['premium'], USAGE],
    [['premium', 'give', 'a@b.c'], USAGE],
    [['premium', 'grant'], USAGE],
    [['premium', 'grant', 'a@b.c', '--days'], /--days takes/],
    [['premium', 'grant', 'a@b.c', '--days', '0'], /--days takes/],
    [['premium', 'grant', 'a@b.c', '--weeks', '2'], USAGE],
    [['premium', 'revoke', 'a@b.c', '--days', '2'], USAGE],
  ])('refuses %j', (args, expected) => {
    const parsed = parseAdminArgs(args);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(expected);
  });

  it('grants Premium for 30 days by default, then revokes it', async () => {
    expect(await runAdmin(['premium', 'grant', 'ann@example.test'], db, io(), () => NOW)).toBe(0);
    let user = await accounts.findByEmail('ann@example.test');
    expect(user?.subscription).toMatchObject({ status: 'active', tier: 'premium', expiresAt: NOW + 30 * DAY_MS });
    expect(isPremium(user?.subscription, NOW)).toBe(true);
    expect(lines.out).toEqual([`Premium granted to ann@example.test until ${new Date(NOW + 30 * DAY_MS).toISOString()}`]);

    expect(await runAdmin(['premium', 'revoke', 'ann@example.test'], db, io(), () => NOW)).toBe(0);
    user = await accounts.findByEmail('ann@example.test');
    expect(user?.subscription).toMatchObject({ status: 'canceled', expiresAt: NOW });
    expect(isPremium(user?.subscription, NOW)).toBe(false);
  });

  it('grants for --days N', async () => {
    expect(await runAdmin(['premium', 'grant', 'ann@example.test', '--days', '7'], db, io(), () => NOW)).toBe(0);
    expect((await accounts.findByEmail('ann@example.test'))?.subscription?.expiresAt).toBe(NOW + 7 * DAY_MS);
  });

  it('fails with a clear line for an unknown email', async () => {
    expect(await runAdmin(['premium', 'grant', 'nobody@example.test'], db, io(), () => NOW)).toBe(1);
    expect(lines.err).toEqual(['admin: no user with the email nobody@example.test']);
  });
});
