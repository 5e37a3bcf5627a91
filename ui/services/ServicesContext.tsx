/**
 * The services of the composition root (compose.ts) for React components: ui/startUi.tsx provides
 * them once around the app; a component asks with useServices() for the lazy handles, or with
 * useAccount() / useAppServices() for the started service, which draws it again once that is in.
 */

import { createContext, useContext, useEffect, useState, type ComponentType } from 'react';
import type { Account } from '../account/account.ts';
import type { AppServices } from './appServices.ts';
import type { Lazy, UiServices } from './compose.ts';

const ServicesContext = createContext<UiServices | null>(null);

export const ServicesProvider = ServicesContext.Provider;

export function useServices(): UiServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('No services: the component is outside the ServicesProvider of ui/startUi.tsx');
  return services;
}

/**
 * A lazy service, started by the first component that asks: null until it is in. A failure to
 * start (its chunk did not load) is left to the error reporter, as an unhandled rejection.
 */
function useStarted<T>(service: Lazy<T>): T | null {
  const [started, setStarted] = useState(() => service.peek());
  const value = started ?? service.peek();
  useEffect(() => {
    if (value !== null) return undefined;
    let live = true;
    void service().then((ready) => {
      if (live) setStarted(ready);
    });
    return () => {
      live = false;
    };
  }, [service, value]);
  return value;
}

export function useAccount(): Account | null {
  return useStarted(useServices().account);
}

export function useAppServices(): AppServices | null {
  return useStarted(useServices().appServices);
}

/**
 * A component that needs the account, given it as a prop once it is started (nothing is drawn
 * before). The windows that use it load its code before they open (ui/panels/panels.ts), so the
 * wait is the account's start, not a download.
 */
export function withAccount<P extends { account: Account }>(Body: ComponentType<P>): ComponentType<Omit<P, 'account'>> {
  function WithAccount(props: Omit<P, 'account'>) {
    const account = useAccount();
    return account && <Body {...({ ...props, account } as P)} />;
  }
  WithAccount.displayName = `WithAccount(${Body.displayName ?? Body.name})`;
  return WithAccount;
}
