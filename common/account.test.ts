import { describe, expect, it } from 'vitest';
import {
  checkEmail, checkLoginForm, checkPassword, checkRegisterForm, FORM_TEXTS, isPendingActionFresh, isPendingLoginAction,
  PENDING_LOGIN_ACTION_MAX_AGE_MS,
} from './account.ts';

describe('form checks (SPEC §5)', () => {
  it('has the texts of SPEC §5', () => {
    expect(FORM_TEXTS.empty).toBe("This field can't be empty");
    expect(FORM_TEXTS.notEmail).toBe("This doesn't look like an email address");
    expect(FORM_TEXTS.passwordEmpty).toBe("Password can't be empty");
    expect(FORM_TEXTS.passwordShort).toBe('Password is too short');
    expect(FORM_TEXTS.passwordDigit).toBe('Password is missing a digit (0-9)');
    expect(FORM_TEXTS.passwordUpper).toBe('Password is missing an uppercase letter (A-Z)');
    expect(FORM_TEXTS.passwordLower).toBe('Password is missing a lowercase letter (a-z)');
    expect(FORM_TEXTS.passwordMismatch).toBe("Password and confirmation don't match");
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['anna', 'notEmail'],
    ['anna@', 'notEmail'],
    ['@example.com', 'notEmail'],
    ['an na@example.com', 'notEmail'],
    ['anna@example.com', null],
    ['a@b', null],
    [`${'a'.repeat(250)}@b.cz`, 'tooLong'],
  ])('email %j -> %s', (email, error) => {
    expect(checkEmail(email)).toBe(error);
  });

  it.each([
    ['', 'passwordEmpty'],
    ['Ab1', 'passwordShort'],
    ['Abcdefg', 'passwordShort'],
    ['Abcdefgh', 'passwordDigit'],
    ['abcdefg1', 'passwordUpper'],
    ['ABCDEFG1', 'passwordLower'],
    ['Abcdefg1', null],
    ['Žluťoučký1', null],
    ['x'.repeat(300), 'passwordLong'],
  ])('password %j -> %s', (password, error) => {
    expect(checkPassword(password)).toBe(error);
  });

  it('register: every refused field with its reason', () => {
    expect(checkRegisterForm({ email: 'x', password: 'short', passwordConfirm: 'other' }))
      .toEqual({ email: 'notEmail', password: 'passwordShort', passwordConfirm: 'passwordMismatch' });
    expect(checkRegisterForm({ email: 'anna@example.com', password: 'Abcdefg1', passwordConfirm: 'Abcdefg1' })).toEqual({});
    expect(checkRegisterForm({ email: 'anna@example.com', password: 'Abcdefg1' })).toEqual({});
    expect(checkRegisterForm({ email: 'anna@example.com', password: 'Abcdefg1', username: 'x'.repeat(65) })).toEqual({ username: 'tooLong' });
  });

  it('login: both fields there (an old password may predate the rules)', () => {
    expect(checkLoginForm({ email: '', password: '' })).toEqual({ email: 'empty', password: 'passwordEmpty' });
    expect(checkLoginForm({ email: 'anna@example.com', password: 'old' })).toEqual({});
  });
});

describe('pending login action (SPEC §4, §9: 5 min)', () => {
  const now = 1_800_000_000_000;
  it.each([
    [0, true],
    [60_000, true],
    [PENDING_LOGIN_ACTION_MAX_AGE_MS - 1, true],
    [PENDING_LOGIN_ACTION_MAX_AGE_MS, false],
    [PENDING_LOGIN_ACTION_MAX_AGE_MS + 1, false],
    [-60_000, false],
  ])('%i ms old -> runs: %s', (age, fresh) => {
    expect(isPendingActionFresh({ action: 'addFav', params: {}, ts: now - age }, now)).toBe(fresh);
  });

  it('none stored: nothing runs', () => {
    expect(isPendingActionFresh(null, now)).toBe(false);
  });

  it.each([
    [{ action: 'addFav', params: { type: 'fav' }, ts: 1 }, true],
    [{ action: 'favs', params: {}, ts: 1 }, true],
    [{ action: 'delete-everything', params: {}, ts: 1 }, false],
    [{ action: 'favs', params: [], ts: 1 }, false],
    [{ action: 'favs', params: {}, ts: '1' }, false],
    [null, false],
  ])('stored %j is a pending action: %s', (value, ok) => {
    expect(isPendingLoginAction(value)).toBe(ok);
  });
});
