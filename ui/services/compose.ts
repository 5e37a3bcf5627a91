/**
 * The composition root of the services around the UI (STYLE.md: models created with their
 * dependencies, composed in one place; DESIGN.md: services are passed in, never looked up):
 *
 *   app services (appServices.ts)  messages, connection, error reports, consent and page views,
 *                                  the start-up position: started right after the first render
 *   account (ui/account/account.ts) session, favourites, alerts, settings sync, push: started when
 *                                  first asked for (a stored token, a window that needs it), with
 *                                  the app services it uses
 *
 * Each is its own chunk, started at most once per page and handed down as a lazy handle: React
 * components get them from ServicesContext.tsx, plain code as parameters. ui/startUi.tsx calls
 * composeServices once.
 */

import { loadAccount } from '../account/loadAccount.ts';
import type { Account } from '../account/account.ts';
import type { AppState } from '../state/appState.ts';
import type { AppServices } from './appServices.ts';

/** A service started on the first call: every call answers the same promise; one that failed (its chunk did not load) is tried again on the next. */
export interface Lazy<T> {
  (): Promise<T>;
  /** The service once started, for a synchronous read (a component's render); null before. */
  peek(): T | null;
}

export function lazy<T>(start: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | null = null;
  let value: T | null = null;
  const get = () => {
    pending ??= start().then((started) => {
      value = started;
      return started;
    }, (error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  return Object.assign(get, { peek: () => value });
}

export interface UiServices {
  appServices: Lazy<AppServices>;
  account: Lazy<Account>;
}

/** For end-to-end tests and the /debug window: window.isobar.services and window.isobar.account. */
function publish<T>(name: 'services' | 'account', service: T): T {
  const handle = (window as unknown as { isobar?: Record<string, unknown> }).isobar;
  if (handle) handle[name] = service;
  return service;
}

export function composeServices(app: AppState): UiServices {
  const appServices = lazy(() => import('./appServices.ts').then((m) => publish('services', m.startAppServices(app))));
  // Both chunks load at once; the account starts once its code and the app services are in.
  const account = lazy(() => Promise.all([loadAccount(), appServices()]).then(([startAccount, services]) => publish('account', startAccount(app, services))));
  return { appServices, account };
}
