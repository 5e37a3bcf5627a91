/**
 * Accounts shared by the browser and the server (SPEC §3 "Settings", "Stored collections",
 * "Other entities"; §4 "Login", "Stored data sync", "Settings sync"; §5 form texts; §9 timings):
 * the timings and limits of the login flow and of the cloud sync, and the checks of the register
 * and login forms with the texts of SPEC §5.
 */

import { MINUTE_MS, SECOND_MS } from './time.ts';

// ---- login flow (SPEC §4 "Login", §8, §9) -----------------------------------------------------

/** SPEC §9: a pending login action is run after login only when under 5 min old. */
export const PENDING_LOGIN_ACTION_MAX_AGE_MS = 5 * MINUTE_MS;
/** SPEC §8: the login success message shows 3 s. */
export const LOGIN_SUCCESS_MESSAGE_MS = 3 * SECOND_MS;
/** SPEC §8: "Failed to retrieve account info." shows 5 s (only online). */
export const ACCOUNT_INFO_ERROR_MESSAGE_MS = 5 * SECOND_MS;
/** "Favorites sync error" (SPEC §8) shows this long. Not in the SPEC. */
export const FAVOURITES_SYNC_ERROR_MESSAGE_MS = 5 * SECOND_MS;
/** SPEC §4: logout reloads the page after 500 ms. */
export const LOGOUT_RELOAD_DELAY_MS = 500;

/** SPEC §4 "Login": the actions a logged-out user may start, run once logged in. */
export const PENDING_LOGIN_ACTIONS = ['addFav', 'alerts-edit', 'favs', 'uploader', 'colors', 'plugin'] as const;
export type PendingLoginActionName = (typeof PENDING_LOGIN_ACTIONS)[number];

export interface PendingLoginAction {
  action: PendingLoginActionName;
  params: Record<string, unknown>;
  /** When it was stored, ms since the epoch. */
  ts: number;
}

/** A stored pending action still to run at `now` (SPEC §4: under 5 min old; a future stamp is not trusted). */
export function isPendingActionFresh(pending: PendingLoginAction | null, now: number): pending is PendingLoginAction {
  return pending !== null && now >= pending.ts && now - pending.ts < PENDING_LOGIN_ACTION_MAX_AGE_MS;
}

/** A stored value that is a pending action (stored data is checked again when read). */
export function isPendingLoginAction(v: unknown): v is PendingLoginAction {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (PENDING_LOGIN_ACTIONS as readonly unknown[]).includes(p.action) && typeof p.ts === 'number' && Number.isFinite(p.ts)
    && typeof p.params === 'object' && p.params !== null && !Array.isArray(p.params);
}

// ---- cloud sync (SPEC §3, §4, §7, §9) ---------------------------------------------------------

/** SPEC §3: the cloud settings blob is versioned (version 4) with data and storeTs. */
export const SETTINGS_BLOB_VERSION = 4;
/** SPEC §9: local settings changes are uploaded debounced 2 s. */
export const SETTINGS_UPLOAD_DEBOUNCE_MS = 2 * SECOND_MS;
/** SPEC §7: the collections of /users/v1/data/{collection}; 'webcams': the webcams a user adds (common/webcams.ts). */
export const SYNC_COLLECTIONS = ['favs', 'alerts', 'notams', 'colors', 'webcams'] as const;
export type SyncCollection = (typeof SYNC_COLLECTIONS)[number];

/** One synced setting in the cloud blob: SPEC §3 "Each syncable setting has a value and an update timestamp"; null removes. */
export interface CloudSettingEntry {
  value: unknown;
  /** Update time, ms since the epoch. */
  ts: number;
}

/** GET / POST /users/settings (SPEC §7). */
export interface CloudSettingsBlob {
  version: typeof SETTINGS_BLOB_VERSION;
  data: Record<string, CloudSettingEntry>;
  /** When the blob was stored, ms since the epoch. */
  storeTs: number;
}

/** An item of a synced collection as GET /users/v1/data/{collection} lists it (SPEC §7). */
export interface CloudItem<T = unknown> {
  id: string;
  value: T;
  /** Last change, ms since the epoch (server clock). */
  updated: number;
}

// ---- the register and login forms (SPEC §5) ---------------------------------------------------

/** The shortest password accepted. Not in the SPEC ("Password is too short" is): NIST SP 800-63B §5.1.1.2 asks at least 8. */
export const PASSWORD_MIN_LENGTH = 8;
/** The longest password accepted (a slow KDF over megabytes is a denial of service). Not in the SPEC. */
export const PASSWORD_MAX_LENGTH = 256;
/** The longest email address (RFC 5321 §4.5.3.1: a path is at most 256 octets, an address 254). */
const EMAIL_MAX_LENGTH = 254;
/** The longest user name. Not in the SPEC. */
const USERNAME_MAX_LENGTH = 64;

/** Why a form field is refused; FORM_TEXTS gives the SPEC §5 text of each. */
export type FormError =
  | 'empty' | 'notEmail' | 'tooLong'
  | 'passwordEmpty' | 'passwordShort' | 'passwordLong' | 'passwordDigit' | 'passwordUpper' | 'passwordLower' | 'passwordMismatch';

/** SPEC §5 "Form texts" (English; the browser shows translations of the same keys). */
export const FORM_TEXTS: Readonly<Record<FormError, string>> = {
  empty: "This field can't be empty",
  notEmail: "This doesn't look like an email address",
  tooLong: 'This is too long',
  passwordEmpty: "Password can't be empty",
  passwordShort: 'Password is too short',
  passwordLong: 'Password is too long',
  passwordDigit: 'Password is missing a digit (0-9)',
  passwordUpper: 'Password is missing an uppercase letter (A-Z)',
  passwordLower: 'Password is missing a lowercase letter (a-z)',
  passwordMismatch: "Password and confirmation don't match",
};

/** SPEC §5: "email: non-space text, an at sign, non-space text" (empty first: its own text). */
export function checkEmail(email: string): FormError | null {
  if (email.trim() === '') return 'empty';
  if (email.length > EMAIL_MAX_LENGTH) return 'tooLong';
  return /^\S+@\S+$/.test(email.trim()) ? null : 'notEmail';
}

/** SPEC §5 password texts, in the order a user fixes them: empty, length, digit, uppercase, lowercase. */
export function checkPassword(password: string): FormError | null {
  if (password === '') return 'passwordEmpty';
  if (password.length < PASSWORD_MIN_LENGTH) return 'passwordShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'passwordLong';
  if (!/[0-9]/.test(password)) return 'passwordDigit';
  if (!/\p{Lu}/u.test(password)) return 'passwordUpper';
  if (!/\p{Ll}/u.test(password)) return 'passwordLower';
  return null;
}

export interface RegisterForm {
  email: string;
  password: string;
  /** Absent: not asked (the server's API makes it optional). */
  passwordConfirm?: string;
  username?: string;
}

/** The refused fields of a register form with their reasons; empty when it may be sent. */
export function checkRegisterForm(form: RegisterForm): Partial<Record<keyof RegisterForm, FormError>> {
  const errors: Partial<Record<keyof RegisterForm, FormError>> = {};
  const email = checkEmail(form.email);
  if (email) errors.email = email;
  const password = checkPassword(form.password);
  if (password) errors.password = password;
  if (form.passwordConfirm !== undefined && form.passwordConfirm !== form.password) errors.passwordConfirm = 'passwordMismatch';
  if (form.username !== undefined && form.username.length > USERNAME_MAX_LENGTH) errors.username = 'tooLong';
  return errors;
}

/** The login form asks only that both fields are there (an old password may predate the rules). */
export function checkLoginForm(form: { email: string; password: string }): Partial<Record<'email' | 'password', FormError>> {
  const errors: Partial<Record<'email' | 'password', FormError>> = {};
  const email = checkEmail(form.email);
  if (email) errors.email = email;
  if (form.password === '') errors.password = 'passwordEmpty';
  else if (form.password.length > PASSWORD_MAX_LENGTH) errors.password = 'passwordLong';
  return errors;
}
