/**
 * Register, login, logout, account info and password change (SPEC §4 "Login", §5 form texts,
 * §7 /api/info and /api/logout). The paths and bodies are listed in server/routes/users.ts.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_ANSWER, INFO_ANSWER, INFO_PATH, LOGGED_OUT_ANSWER, LOGIN_PATH, LOGOUT_PATH, PASSWORD_PATH, REGISTER_PATH,
  type AuthAnswer, type LoginBody, type PasswordBody, type RegisterBody,
} from '../../common/api/account.ts';
import {
  checkLoginForm, checkPassword, checkRegisterForm, FORM_TEXTS, PASSWORD_MAX_LENGTH, type FormError,
} from '../../common/account.ts';
import { authHashOf, EmailTakenError, normalizeEmail, type AccountStore, type Principal, type Session, type User } from '../auth/accounts.ts';
import { principal, principalOf, requireUser } from '../auth/bearer.ts';
import type { KeyedLimiter } from '../auth/keyedLimiter.ts';
import type { LoginThrottle } from '../auth/loginThrottle.ts';
import { AUTH_BODY_MAX_BYTES } from '../auth/limits.ts';
import { HttpError, tooMany } from '../http/httpError.ts';

export interface AccountRouteOptions {
  accounts: AccountStore;
  limiters: { loginPerIp: KeyedLimiter; registerPerIp: KeyedLimiter };
  /** Failed logins per account and address (auth/loginThrottle.ts); the password change counts its failures there too. */
  loginThrottle: LoginThrottle;
  /** Devices registered with a session are deactivated when it logs out (server/routes/devices.ts). */
  onLogout: (principal: Principal) => Promise<void>;
}

/** Loose on purpose: the form checks below answer with the SPEC §5 texts, not the schema's. */
const text = (maxLength: number) => ({ type: 'string', maxLength, default: '' }) as const;
/** Generous caps for the schema; the form checks apply the real ones with their texts. */
const FIELD_MAX = 2 * PASSWORD_MAX_LENGTH + 1024;

function authAnswer(user: User, session: Pick<Session, 'token' | 'expiresAt'>): AuthAnswer {
  return {
    auth: true,
    token: session.token,
    expiresAt: session.expiresAt,
    userInfo: { id: user.id, username: user.username, email: user.email, avatar: user.avatar },
    subscriptionInfo: user.subscription as AuthAnswer['subscriptionInfo'],
    authHash: authHashOf(user.id),
  };
}

type FieldErrors = Partial<Record<string, FormError | { code: string; message: string }>>;

/** 400 (or another status) with the SPEC §5 text of the first refused field and every field's reason. */
function formError(reply: FastifyReply, errors: FieldErrors, status = 400, statusText = 'Bad Request') {
  const fields = Object.fromEntries(Object.entries(errors).map(([field, e]) => [
    field, typeof e === 'string' ? { code: e, message: FORM_TEXTS[e] } : e,
  ])) as Record<string, { code: string; message: string }>;
  const first = Object.values(fields)[0];
  return reply.code(status).send({ statusCode: status, error: statusText, message: first?.message ?? 'Bad input', errors: fields });
}

/** Control characters (NUL included) have no place in an address or a name, and PostgreSQL text cannot hold NUL. */
const CONTROL = /\p{Cc}/u;

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { accounts, limiters, loginThrottle } = options;
  const authenticated = requireUser(accounts);

  app.post<{ Body: RegisterBody }>(REGISTER_PATH, {
    bodyLimit: AUTH_BODY_MAX_BYTES,
    schema: {
      body: {
        type: 'object',
        properties: { email: text(FIELD_MAX), password: text(FIELD_MAX), passwordConfirm: { type: 'string', maxLength: FIELD_MAX }, username: { type: 'string', maxLength: FIELD_MAX } },
      },
      response: { 201: AUTH_ANSWER },
    },
    onRequest: async (request, reply) => {
      const wait = await limiters.registerPerIp.blockedFor(request.ip);
      if (wait > 0) throw tooMany(reply, wait, 'Too many new accounts from this address');
      await limiters.registerPerIp.hit(request.ip);
    },
  }, async (request, reply) => {
    const form = request.body;
    const errors: FieldErrors = checkRegisterForm(form);
    if (!errors.email && CONTROL.test(form.email)) errors.email = 'notEmail';
    if (!errors.username && form.username !== undefined && CONTROL.test(form.username)) {
      errors.username = { code: 'invalidCharacters', message: 'This name contains characters that are not allowed' };
    }
    if (Object.keys(errors).length > 0) return formError(reply, errors);
    try {
      const { user, session } = await accounts.register({ email: form.email, password: form.password, username: form.username });
      return reply.code(201).send(authAnswer(user, session));
    } catch (error) {
      if (error instanceof EmailTakenError) return formError(reply, { email: { code: 'taken', message: error.message } }, 409, 'Conflict');
      throw error;
    }
  });

  app.post<{ Body: LoginBody }>(LOGIN_PATH, {
    bodyLimit: AUTH_BODY_MAX_BYTES,
    schema: {
      body: { type: 'object', properties: { email: text(FIELD_MAX), password: text(FIELD_MAX) } },
      response: { 200: AUTH_ANSWER },
    },
    onRequest: async (request, reply) => {
      // Every attempt counts: each one costs a KDF run.
      const wait = await limiters.loginPerIp.blockedFor(request.ip);
      if (wait > 0) throw tooMany(reply, wait, 'Too many login attempts from this address');
      await limiters.loginPerIp.hit(request.ip);
    },
  }, async (request, reply) => {
    const { email, password } = request.body;
    const errors = checkLoginForm({ email, password });
    if (Object.keys(errors).length > 0) return formError(reply, errors);
    const account = normalizeEmail(email);
    const wait = await loginThrottle.blockedFor(account, request.ip);
    if (wait > 0) throw tooMany(reply, wait, 'Too many failed logins for this account from this address');
    const result = await accounts.login(email, password);
    if (!result) {
      await loginThrottle.failed(account, request.ip);
      // One text whether the address has no account or the password is wrong.
      throw new HttpError(401, 'Wrong email or password');
    }
    await loginThrottle.succeeded(account, request.ip);
    return authAnswer(result.user, result.session);
  });

  // SPEC §7: answers auth false (not 401) without a valid token: it is how the client learns it is logged out.
  app.get(INFO_PATH, {
    schema: { response: { 200: INFO_ANSWER } },
  }, async (request: FastifyRequest) => {
    const p = await principalOf(request, accounts);
    return p ? authAnswer(p.user, p) : { auth: false as const };
  });

  app.get(LOGOUT_PATH, { onRequest: authenticated, schema: { response: { 200: LOGGED_OUT_ANSWER } } }, async (request) => {
    const p = principal(request);
    await accounts.revoke(p.tokenId);
    await options.onLogout(p);
    return { auth: false as const };
  });

  app.post<{ Body: PasswordBody }>(PASSWORD_PATH, {
    bodyLimit: AUTH_BODY_MAX_BYTES,
    onRequest: authenticated,
    schema: {
      body: { type: 'object', properties: { password: text(FIELD_MAX), newPassword: text(FIELD_MAX), newPasswordConfirm: { type: 'string', maxLength: FIELD_MAX } } },
      response: { 200: AUTH_ANSWER },
    },
  }, async (request, reply) => {
    const p = principal(request);
    const { password, newPassword, newPasswordConfirm } = request.body;
    const errors: FieldErrors = {};
    if (password === '') errors.password = 'passwordEmpty';
    const problem = checkPassword(newPassword);
    if (problem) errors.newPassword = problem;
    if (newPasswordConfirm !== undefined && newPasswordConfirm !== newPassword) errors.newPasswordConfirm = 'passwordMismatch';
    if (Object.keys(errors).length > 0) return formError(reply, errors);
    const account = normalizeEmail(p.user.email);
    const wait = await loginThrottle.blockedFor(account, request.ip);
    if (wait > 0) throw tooMany(reply, wait, 'Too many failed logins for this account from this address');
    const session = await accounts.changePassword(p.user.id, password, newPassword);
    if (!session) {
      await loginThrottle.failed(account, request.ip);
      return formError(reply, { password: { code: 'wrongPassword', message: 'Wrong password' } }, 403, 'Forbidden');
    }
    return authAnswer(p.user, session);
  });
}
