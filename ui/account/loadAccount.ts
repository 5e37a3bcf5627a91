/**
 * The way into the account code, which loads lazily (its own chunk): the top bar and the forecast
 * window call this; nothing of the account is in the start-up bundle.
 */

import type { AppState } from '../state/appState.ts';
import type { Account } from './account.ts';

export function loadAccount(app: AppState): Promise<Account> {
  return import('./account.ts').then((m) => m.startAccount(app));
}
