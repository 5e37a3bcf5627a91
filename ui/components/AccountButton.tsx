/**
 * The top bar's way into the account (SPEC §2 menu entries login, profile; §4 "Login"): "Log in"
 * while logged out, the user's initial once logged in (it opens the favorites and the account).
 * It only reads the stored user; the account code (ui/account/, its own chunk) loads when a token
 * is stored, to check it with /api/info and sync, and otherwise only when a window needs it.
 */

import { useEffect } from 'react';
import { effect } from '@preact/signals-core';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useServices } from '../services/ServicesContext.tsx';
import type { AppState } from '../state/appState.ts';
import './accountButton.css';

/** The letter shown for a user: the first of the name, else of the email. */
function initialOf(user: Record<string, unknown>): string {
  const name = [user.username, user.email].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '?';
  return Array.from(name.trim())[0].toLocaleUpperCase();
}

export function AccountButton({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const user = app.settings.signal('user').value as Record<string, unknown> | null;
  const { account } = useServices();

  useEffect(() => effect(() => {
    // With a stored token the session is checked (SPEC §4: /api/info at start) once settings are in.
    if (!app.settings.ready.value || !app.settings.signal('userToken').value) return;
    void account();
  }), [app, account]);

  if (!user) {
    return (
      <button type="button" className="account-button" data-testid="account-button" onClick={() => void app.router.navigate('/login')}>
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <circle cx="12" cy="8" r="4" /><path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
        </svg>
        <span className="account-button-label">{t('account.login')}</span>
      </button>
    );
  }
  const name = String(user.username || user.email || '');
  return (
    <button type="button" className="account-button account-avatar" data-testid="account-button" data-logged-in="true"
      title={t('account.user', { name })} aria-label={t('account.user', { name })} onClick={() => void app.router.navigate('/favs')}>
      {typeof user.avatar === 'string' && /^https?:\/\//.test(user.avatar)
        ? <img src={user.avatar} alt="" width="24" height="24" />
        : <span aria-hidden="true">{initialOf(user)}</span>}
    </button>
  );
}
