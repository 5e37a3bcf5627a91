/**
 * The login and register forms (routes /login and /register; SPEC §4 "Login", §5 form texts): the
 * fields are checked here with the rules of common/account.ts before anything is sent (the server
 * checks them again). A field shows its error once the form was sent, and follows each keystroke
 * from then on. Once logged in the window shows who is logged in, with the favorites and logout.
 */

import './login.css';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { checkLoginForm, checkRegisterForm, PASSWORD_MIN_LENGTH, type FormError } from '../../../common/account.ts';
import type { Account } from '../../account/account.ts';
import { HttpError } from '../../http/httpError.ts';
import { withAccount } from '../../services/ServicesContext.tsx';
import type { PanelProps } from '../registry.ts';

type Mode = 'login' | 'register';
type Field = 'email' | 'password' | 'passwordConfirm' | 'username';

/** The text of a refused login or register request (SPEC §8: a failed login is only logged, and told in the form). */
function failureKey(mode: Mode, error: unknown): string {
  const status = error instanceof HttpError ? error.status : -1;
  if (status === 0) return 'register:errors.offline';
  if (status === 429) return 'register:errors.tooMany';
  if (mode === 'login' && (status === 401 || status === 403 || status === 400)) return 'register:login.failed';
  if (mode === 'register' && status === 409) return 'register:register.taken';
  return 'register:errors.server';
}

function FormField({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className={error ? 'auth-field invalid' : 'auth-field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? <p className="auth-error" id={`${id}-msg`} data-testid="field-error">{error}</p>
        : hint ? <p className="auth-hint" id={`${id}-msg`}>{hint}</p> : null}
    </div>
  );
}

function Form({ app, close, mode, account }: PanelProps & { mode: Mode; account: Account }) {
  useSignals();
  const { t } = useTranslation('register');
  const { session } = account;
  const base = useId();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', password: '', passwordConfirm: '', username: '' });
  const [sent, setSent] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);

  const check = (v: Record<Field, string>): Partial<Record<Field, FormError>> => (mode === 'login'
    ? checkLoginForm(v)
    : checkRegisterForm({ email: v.email, password: v.password, passwordConfirm: v.passwordConfirm, username: v.username || undefined }));
  const errors = sent ? check(values) : {};
  const errorText = (field: Field) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(true);
    setFailure(null);
    if (Object.keys(check(values)).length > 0) {
      // The first refused field gets the focus.
      const form = e.currentTarget as HTMLFormElement;
      queueMicrotask(() => form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      if (mode === 'login') await session.login(values.email, values.password);
      else await session.register({ email: values.email, password: values.password, passwordConfirm: values.passwordConfirm, username: values.username.trim() || undefined });
      close();
    } catch (error) {
      console.info(`${mode === 'login' ? 'Login' : 'Registration'} failed`, error instanceof HttpError ? error.status : error);
      setFailure(failureKey(mode, error));
    } finally {
      setBusy(false);
    }
  };

  const input = (field: Field, type: string, autoComplete: string, extra: Record<string, unknown> = {}) => {
    const id = `${base}-${field}`;
    return (
      <input id={id} name={field} type={type} autoComplete={autoComplete} value={values[field]} data-testid={`auth-${field}`}
        aria-invalid={errors[field] ? true : undefined} aria-describedby={`${id}-msg`} disabled={busy}
        onChange={(e) => setValues({ ...values, [field]: e.currentTarget.value })} {...extra} />
    );
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
  };
  const user = session.user.value;
  if (user && !busy) {
    const name = String(user.username || user.email || '');
    return (
      <div className="auth" data-testid="auth-logged-in" onKeyDown={onKeyDown}>
        <header className="auth-head">
          <h2>{t('loggedIn.title')}</h2>
          <button type="button" className="auth-close" onClick={close} aria-label={t('translation:picker.close')} data-testid="panel-close">×</button>
        </header>
        <p>{t('loggedIn.as', { name })}</p>
        <div className="auth-actions">
          <button type="button" className="auth-secondary" onClick={() => void app.router.navigate('/favs')}>{t('loggedIn.favs')}</button>
          <button type="button" className="auth-primary" disabled={loggingOut} data-testid="auth-logout"
            onClick={() => {
              setLoggingOut(true);
              void session.logout();
            }}>{loggingOut ? t('loggedIn.loggingOut') : t('loggedIn.logout')}</button>
        </div>
      </div>
    );
  }

  const other: Mode = mode === 'login' ? 'register' : 'login';
  return (
    <form className="auth" data-testid={`auth-${mode}`} noValidate onSubmit={(e) => void submit(e)} onKeyDown={onKeyDown} aria-busy={busy}>
      <header className="auth-head">
        <h2>{t(`${mode}.title`)}</h2>
        <button type="button" className="auth-close" onClick={close} aria-label={t('translation:picker.close')} data-testid="panel-close">×</button>
      </header>
      <p className="auth-intro">{t(`${mode}.intro`)}</p>
      <FormField id={`${base}-email`} label={t('fields.email')} error={errorText('email')}>
        {input('email', 'email', 'email', { inputMode: 'email', autoCapitalize: 'none', spellCheck: false, autoFocus: !app.mobile() })}
      </FormField>
      {mode === 'register' && (
        <FormField id={`${base}-username`} label={t('fields.username')} error={errorText('username')}>
          {input('username', 'text', 'nickname')}
        </FormField>
      )}
      <FormField id={`${base}-password`} label={t('fields.password')} error={errorText('password')}
        hint={mode === 'register' ? t('fields.passwordHint', { count: PASSWORD_MIN_LENGTH }) : undefined}>
        {input('password', showPassword ? 'text' : 'password', mode === 'login' ? 'current-password' : 'new-password')}
      </FormField>
      {mode === 'register' && (
        <FormField id={`${base}-passwordConfirm`} label={t('fields.passwordConfirm')} error={errorText('passwordConfirm')}>
          {input('passwordConfirm', showPassword ? 'text' : 'password', 'new-password')}
        </FormField>
      )}
      <label className="auth-show">
        <input type="checkbox" checked={showPassword} onChange={(e) => setShowPassword(e.currentTarget.checked)} />
        {t('fields.showPassword')}
      </label>
      {failure && <p className="auth-failure" role="alert" data-testid="auth-failure">{t(failure)}</p>}
      <button type="submit" className="auth-primary auth-submit" disabled={busy} data-testid="auth-submit">
        {busy ? t(`${mode}.busy`) : t(`${mode}.submit`)}
      </button>
      <p className="auth-switch">
        {t(mode === 'login' ? 'login.toRegister' : 'register.toLogin')}{' '}
        <a href={`/${other}`} data-testid={`auth-to-${other}`} onClick={(e) => {
          e.preventDefault();
          void app.router.navigate(`/${other}`);
        }}>{t(mode === 'login' ? 'login.toRegisterLink' : 'register.toLoginLink')}</a>
      </p>
    </form>
  );
}

export const AuthForm = withAccount(Form);
