import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FORM_TEXTS } from '../../common/account.ts';
import { buildApp } from '../app.ts';
import { tokenIdOf } from '../auth/accounts.ts';
import { TOKEN_LIFETIME_MS } from '../auth/limits.ts';
import { makePostgresTestDatabase, makeSqliteTestDatabase, testDatabases, testPostgresUrl } from '../db/testing.ts';
import { accountsTestApp, bearer, PASSWORD, registerUser, TEST_KDF, type AccountsTestApp } from './testing.ts';
import { MINUTE_MS } from '../../common/time.ts';

const T0_PLUS_MONTH = Date.UTC(2025, 11, 26);

describe.each(testDatabases())('accounts on $name', (backend) => {
  const apps: AccountsTestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  const start = async (options: Parameters<typeof accountsTestApp>[1] = {}) => {
    const t = await accountsTestApp(backend, options);
    apps.push(t);
    return t;
  };
  const register = (t: AccountsTestApp, body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/users/v1/register', payload: body });
  const login = (t: AccountsTestApp, email: string, password: string, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/users/v1/login', payload: { email, password }, remoteAddress: ip });

  describe('register (SPEC §5 form rules and texts)', () => {
    it.each([
      ['an empty email', { email: '', password: PASSWORD }, 'email', FORM_TEXTS.empty],
      ['a missing email', { password: PASSWORD }, 'email', FORM_TEXTS.empty],
      ['spaces for an email', { email: '   ', password: PASSWORD }, 'email', FORM_TEXTS.empty],
      ['an email without @', { email: 'someone.example.test', password: PASSWORD }, 'email', FORM_TEXTS.notEmail],
      ['an email with a space', { email: 'some one@example.test', password: PASSWORD }, 'email', FORM_TEXTS.notEmail],
      ['an email with a NUL', { email: 'a\u0000b@example.test', password: PASSWORD }, 'email', FORM_TEXTS.notEmail],
      ['an empty password', { email: 'a@example.test', password: '' }, 'password', "Password can't be empty"],
      ['a password of 7 characters', { email: 'a@example.test', password: 'Abcdef1' }, 'password', 'Password is too short'],
      ['a password without a digit', { email: 'a@example.test', password: 'Abcdefgh' }, 'password', 'Password is missing a digit (0-9)'],
      ['a password without uppercase', { email: 'a@example.test', password: 'abcdefg1' }, 'password', 'Password is missing an uppercase letter (A-Z)'],
      ['a password without lowercase', { email: 'a@example.test', password: 'ABCDEFG1' }, 'password', 'Password is missing a lowercase letter (a-z)'],
      ['a confirmation that differs', { email: 'a@example.test', password: PASSWORD, passwordConfirm: `${PASSWORD}x` }, 'passwordConfirm', "Password and confirmation don't match"],
      ['a username with control characters', { email: 'a@example.test', password: PASSWORD, username: 'a\u0007b' }, 'username', 'This name contains characters that are not allowed'],
    ])('400 for %s: "%s"', async (_name, body, field, text) => {
      const t = await start();
      const response = await register(t, body);
      expect(response.statusCode).toBe(400);
      const answer = response.json();
      expect(answer.message).toBe(text);
      expect(answer.errors[field].message).toBe(text);
      expect(await t.db.get('SELECT COUNT(*) AS n FROM users')).toEqual({ n: 0 });
    });

    it('lists every refused field at once', async () => {
      const t = await start();
      const answer = (await register(t, { email: 'nope', password: 'short', passwordConfirm: 'other' })).json();
      expect(Object.keys(answer.errors).sort()).toEqual(['email', 'password', 'passwordConfirm']);
      expect(answer.errors.email.code).toBe('notEmail');
    });

    it('creates the user with a hashed password and a hashed token, and answers AuthAnswer', async () => {
      const t = await start();
      const response = await register(t, { email: '  New.User@Example.TEST ', password: PASSWORD, passwordConfirm: PASSWORD });
      expect(response.statusCode).toBe(201);
      const answer = response.json();
      expect(answer).toMatchObject({
        auth: true,
        userInfo: { email: 'new.user@example.test', username: 'new.user', avatar: null },
        subscriptionInfo: null,
      });
      expect(answer.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(answer.expiresAt).toBe(t.clock.now() + TOKEN_LIFETIME_MS);
      expect(answer.authHash).toMatch(/^[0-9a-f]{32}$/);
      const row = await t.db.get<{ password_hash: string }>('SELECT password_hash FROM users');
      expect(row?.password_hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
      expect(row?.password_hash).not.toContain(PASSWORD);
      const tokens = await t.db.all<{ id: string }>('SELECT id FROM auth_tokens');
      expect(tokens).toEqual([{ id: tokenIdOf(answer.token) }]);
      expect(JSON.stringify(await t.db.all('SELECT * FROM auth_tokens'))).not.toContain(answer.token);
    });

    it('409 for an address that has an account, whatever its case', async () => {
      const t = await start();
      await registerUser(t.app, 'taken@example.test');
      const response = await register(t, { email: 'TAKEN@example.test', password: PASSWORD });
      expect(response.statusCode).toBe(409);
      expect(response.json().errors.email.code).toBe('taken');
    });

    it('two registrations of one address at once make one user', async () => {
      const t = await start();
      const answers = await Promise.all([0, 1, 2].map(() => register(t, { email: 'race@example.test', password: PASSWORD })));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      expect(await t.db.get('SELECT COUNT(*) AS n FROM users')).toEqual({ n: 1 });
    });

    it('429 with retry-after past the registrations per address', async () => {
      const t = await start({ limits: { registrationsPerIp: 2 } });
      await registerUser(t.app);
      await registerUser(t.app);
      const response = await register(t, { email: 'third@example.test', password: PASSWORD });
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('login', () => {
    it('answers a new token for the right email and password (any case of the email)', async () => {
      const t = await start();
      const user = await registerUser(t.app, 'login@example.test');
      const response = await login(t, 'LOGIN@example.test', PASSWORD);
      expect(response.statusCode).toBe(200);
      const answer = response.json();
      expect(answer.auth).toBe(true);
      expect(answer.token).not.toBe(user.token);
      expect(answer.userInfo.id).toBe(user.id);
      expect((await t.app.inject({ url: '/api/info', headers: bearer(answer.token) })).json().userInfo.id).toBe(user.id);
    });

    it('answers one generic 401 for a wrong password and for an unknown address', async () => {
      const t = await start();
      await registerUser(t.app, 'known@example.test');
      const wrong = await login(t, 'known@example.test', 'Wrong1Password');
      const unknown = await login(t, 'nobody@example.test', PASSWORD);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Wrong email or password');
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('400 with the SPEC texts for empty fields', async () => {
      const t = await start();
      const answer = (await login(t, '', '')).json();
      expect(answer.errors.email.message).toBe(FORM_TEXTS.empty);
      expect(answer.errors.password.message).toBe(FORM_TEXTS.passwordEmpty);
    });

    it('rehashes a password stored with weaker parameters', async () => {
      const t = await start({ kdf: { ln: 11, r: 8, p: 1 } });
      await registerUser(t.app, 'old@example.test');
      await t.db.run('UPDATE users SET password_hash = ?', [(await import('../auth/passwords.ts').then((m) => m.hashPassword(PASSWORD, TEST_KDF)))]);
      expect((await login(t, 'old@example.test', PASSWORD)).statusCode).toBe(200);
      expect((await t.db.get<{ password_hash: string }>('SELECT password_hash FROM users'))?.password_hash).toMatch(/^\$scrypt\$ln=11,/);
      expect((await login(t, 'old@example.test', PASSWORD)).statusCode).toBe(200);
    });

    it('limits failed logins per account and address: 429 with retry-after for that address only, until the window ends', async () => {
      const t = await start({ limits: { loginFailuresPerAccountAddress: 3, loginAttemptsPerIp: 1000 } });
      await registerUser(t.app, 'victim@example.test');
      const attacker = '203.0.113.66';
      for (let i = 0; i < 3; i++) expect((await login(t, 'victim@example.test', `Wrong${i}Password`, attacker)).statusCode).toBe(401);
      const blocked = await login(t, 'victim@example.test', PASSWORD, attacker);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);
      // The owner, from their own address, is not locked out by someone else's failures (issue 12: OWASP).
      expect((await login(t, 'victim@example.test', PASSWORD, '10.0.0.9')).statusCode).toBe(200);
      // Another account is not affected for the attacker's address either.
      await registerUser(t.app, 'other@example.test');
      expect((await login(t, 'other@example.test', PASSWORD, attacker)).statusCode).toBe(200);
      t.clock.advance(15 * MINUTE_MS);
      expect((await login(t, 'victim@example.test', PASSWORD, attacker)).statusCode).toBe(200);
    });

    it('after failures from many addresses, new addresses wait while the owner\'s known address still logs in', async () => {
      const t = await start({ limits: { loginFailuresPerAccountAddress: 3, loginFailuresPerAccountNewAddresses: 5, loginAttemptsPerIp: 1000 } });
      await registerUser(t.app, 'victim@example.test');
      expect((await login(t, 'victim@example.test', PASSWORD, '10.0.0.9')).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) expect((await login(t, 'victim@example.test', 'Wrong1Password', `203.0.113.${i}`)).statusCode).toBe(401);
      expect((await login(t, 'victim@example.test', PASSWORD, '203.0.113.99')).statusCode).toBe(429);
      expect((await login(t, 'victim@example.test', PASSWORD, '10.0.0.9')).statusCode).toBe(200);
    });

    it('limits login attempts per address: 429 with retry-after', async () => {
      const t = await start({ limits: { loginAttemptsPerIp: 3 } });
      await registerUser(t.app, 'ip@example.test');
      for (let i = 0; i < 3; i++) expect((await login(t, 'ip@example.test', PASSWORD, '192.0.2.1')).statusCode).toBe(200);
      const blocked = await login(t, 'ip@example.test', PASSWORD, '192.0.2.1');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(t, 'ip@example.test', PASSWORD, '192.0.2.2')).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it('/api/info: auth false without a token, with a bad one, and after expiry', async () => {
      const t = await start();
      const user = await registerUser(t.app);
      expect((await t.app.inject({ url: '/api/info' })).json()).toEqual({ auth: false });
      expect((await t.app.inject({ url: '/api/info', headers: { authorization: 'Bearer nonsense-token-value-123' } })).json()).toEqual({ auth: false });
      expect((await t.app.inject({ url: '/api/info', headers: { authorization: user.token } })).json()).toEqual({ auth: false });
      expect((await t.app.inject({ url: '/api/info', headers: bearer(user.token) })).json()).toMatchObject({ auth: true, token: user.token });
      t.clock.advance(TOKEN_LIFETIME_MS - 1);
      expect((await t.app.inject({ url: '/api/info', headers: bearer(user.token) })).json().auth).toBe(true);
      t.clock.advance(1);
      expect((await t.app.inject({ url: '/api/info', headers: bearer(user.token) })).json()).toEqual({ auth: false });
      const refused = await t.app.inject({ url: '/users/settings', headers: bearer(user.token) });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
    });

    it('answers the subscription info the Premium code set (SPEC §3)', async () => {
      const t = await start();
      const user = await registerUser(t.app);
      const { AccountStore } = await import('../auth/accounts.ts');
      const info = { state: 'ok', platform: 'stripe', status: 'active', tier: 'premium', isSubscription: true, isTrial: false, expiresAt: T0_PLUS_MONTH };
      expect(await new AccountStore(t.db).setSubscription(user.id, info)).toBe(true);
      expect((await t.app.inject({ url: '/api/info', headers: bearer(user.token) })).json().subscriptionInfo).toEqual(info);
      const loggedIn = await login(t, user.email, PASSWORD);
      expect(loggedIn.json().subscriptionInfo).toEqual(info);
    });

    it('a database failure is a plain 500 that tells nothing of the database', async () => {
      const t = await start();
      const user = await registerUser(t.app);
      await t.db.exec('DROP TABLE user_settings');
      const response = await t.app.inject({ url: '/users/settings', headers: bearer(user.token) });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'The request failed on the server; try again later' });
    });

    it('the token is not accepted in the query string', async () => {
      const t = await start();
      const user = await registerUser(t.app);
      expect((await t.app.inject({ url: `/users/settings?token=${user.token}` })).statusCode).toBe(401);
    });

    it('logout revokes only that session', async () => {
      const t = await start();
      const first = await registerUser(t.app, 'two@example.test');
      const second = (await login(t, 'two@example.test', PASSWORD)).json().token as string;
      const out = await t.app.inject({ url: '/api/logout', headers: bearer(first.token) });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ auth: false });
      expect((await t.app.inject({ url: '/users/settings', headers: bearer(first.token) })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/api/logout', headers: bearer(first.token) })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/users/settings', headers: bearer(second) })).statusCode).toBe(200);
    });

    it('a password change revokes every session and answers a new token', async () => {
      const t = await start();
      const user = await registerUser(t.app, 'change@example.test');
      const other = (await login(t, 'change@example.test', PASSWORD)).json().token as string;
      const change = (body: Record<string, unknown>, token = user.token) =>
        t.app.inject({ method: 'POST', url: '/users/v1/password', headers: bearer(token), payload: body });
      expect((await change({ password: PASSWORD, newPassword: 'short' })).json().errors.newPassword.message).toBe('Password is too short');
      expect((await change({ password: PASSWORD, newPassword: 'New1Password', newPasswordConfirm: 'x' })).json().errors.newPasswordConfirm.message)
        .toBe(FORM_TEXTS.passwordMismatch);
      const wrong = await change({ password: 'Wrong1Password', newPassword: 'New1Password' });
      expect(wrong.statusCode).toBe(403);
      const changed = await change({ password: PASSWORD, newPassword: 'New1Password', newPasswordConfirm: 'New1Password' });
      expect(changed.statusCode).toBe(200);
      const fresh = changed.json().token as string;
      for (const old of [user.token, other]) expect((await t.app.inject({ url: '/users/settings', headers: bearer(old) })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/users/settings', headers: bearer(fresh) })).statusCode).toBe(200);
      expect((await login(t, 'change@example.test', PASSWORD)).statusCode).toBe(401);
      expect((await login(t, 'change@example.test', 'New1Password')).statusCode).toBe(200);
    });
  });
});

describe('the server log never holds secrets', () => {
  it('passwords, tokens in headers and tokens in URLs are not logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const made = await makeSqliteTestDatabase();
    const app = await buildApp({
      logger: { level: 'trace', stream }, distDir: null, prewarm: false, dataDir: null, liveSources: null,
      accounts: { database: made.config, kdf: TEST_KDF },
    });
    try {
      const password = 'Sup3rSecretPassw0rd';
      const registered = await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email: 'log@example.test', password } });
      const token = registered.json().token as string;
      await app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'log@example.test', password: 'Wr0ngSecretPassw0rd' } });
      await app.inject({ url: `/users/settings?token=${token}`, headers: bearer(token) });
      await app.inject({ url: '/users/v1/data/favs', headers: { authorization: `Bearer ${token}x` } });
      await app.inject({ method: 'POST', url: '/users/v1/data/favs', headers: bearer(token), payload: { type: 'nope', password } });
      await app.inject({ url: '/api/logout', headers: bearer(token) });
      const log = lines.join('');
      expect(log).toContain('/users/settings?token=[redacted]');
      expect(log).toContain('Invalid favourite');
      expect(log).not.toContain(password);
      expect(log).not.toContain('Wr0ngSecretPassw0rd');
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(0, 20));
    } finally {
      await app.close();
      await made.cleanup();
    }
  });
});

describe('the database of buildApp', () => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, ISOBAR_DB_PATH: process.env.ISOBAR_DB_PATH };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  const appOptions = { distDir: null, prewarm: false, dataDir: null, liveSources: null } as const;

  it('is the SQLite file ISOBAR_DB_PATH, opened on the first account request only', async () => {
    const made = await makeSqliteTestDatabase();
    const path = (made.config as { path: string }).path;
    delete process.env.DATABASE_URL;
    process.env.ISOBAR_DB_PATH = path;
    const { existsSync } = await import('node:fs');
    const app = await buildApp({ ...appOptions, accounts: { kdf: TEST_KDF } });
    try {
      expect((await app.inject({ url: '/metadata/v1.0/forecast/demo/minifest.json' })).statusCode).toBeLessThan(500);
      expect(existsSync(path)).toBe(false);
      expect((await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email: 'file@example.test', password: PASSWORD } })).statusCode).toBe(201);
      expect(existsSync(path)).toBe(true);
      expect(await app.accounts.findByEmail('file@example.test')).toMatchObject({ email: 'file@example.test' });
    } finally {
      await app.close();
      await made.cleanup();
    }
  });

  it.skipIf(!testPostgresUrl())('is PostgreSQL when DATABASE_URL is set', async () => {
    const made = await makePostgresTestDatabase(testPostgresUrl()!);
    const { url, schema } = made.config as { url: string; schema: string };
    // The schema of this test through the URL, as an operator could set it.
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    process.env.DATABASE_URL = withSchema.toString();
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const app = await buildApp({ ...appOptions, accounts: { kdf: TEST_KDF } });
    try {
      expect((await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email: 'pg@example.test', password: PASSWORD } })).statusCode).toBe(201);
      const rows = await admin.query(`SELECT email FROM ${schema}.users`);
      expect(rows.rows).toEqual([{ email: 'pg@example.test' }]);
    } finally {
      await app.close();
      await admin.end();
      await made.cleanup();
    }
  });
});
