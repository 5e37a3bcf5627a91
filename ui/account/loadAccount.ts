/**
 * The way into the account code, which loads lazily (its own chunk): the composition root
 * (ui/services/compose.ts) starts the account through this, and the windows that need the account
 * load its code before they open (ui/panels/panels.ts), so it is ready when they first draw.
 * Nothing of the account is in the start-up bundle.
 */

import type { startAccount } from './account.ts';

export function loadAccount(): Promise<typeof startAccount> {
  return import('./account.ts').then((m) => m.startAccount);
}
