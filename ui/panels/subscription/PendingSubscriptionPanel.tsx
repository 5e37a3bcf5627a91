/**
 * The pending-subscription window (route /pending-subscription; SPEC §4 "A pending subscription
 * opens the pending-subscription window"). Stripe Checkout sends a paying user back here; the
 * payment is confirmed by Stripe's webhook to the server, a moment later. The window keeps the
 * setting `pendingSubscription` (so it opens again at the next start while nothing is confirmed)
 * and asks /api/info every PENDING_SUBSCRIPTION_POLL_MS until the status is active — which ends
 * the pending state (ui/account/subscription.ts) — or PENDING_SUBSCRIPTION_WAIT_MS have passed.
 */

import './subscription.css';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PENDING_SUBSCRIPTION_POLL_MS, PENDING_SUBSCRIPTION_WAIT_MS } from '../../../common/entitlements.ts';
import type { Account } from '../../account/account.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { withAccount } from '../../services/ServicesContext.tsx';

function PendingSubscriptionPanel({ app, close, openCount, account }: PanelProps & { account: Account }) {
  useSignals();
  const { t } = useTranslation('subscription');
  const { session } = account;
  const premium = app.settings.signal('subscription').value === 'premium';
  const [slow, setSlow] = useState(false);
  // 'checking' until the pending state is stored (it survives a reload from then on).
  const [stored, setStored] = useState(false);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const began = Date.now();
    setSlow(false);
    setStored(false);
    const ask = async () => {
      await account.started;
      if (!live || !session.loggedIn.peek()) return;
      if (app.settings.get('pendingSubscription') == null && app.settings.get('subscription') !== 'premium') {
        app.settings.set('pendingSubscription', { since: began } as never);
      }
      setStored(true);
      await session.refreshSubscription().catch(() => false);
      if (!live || app.settings.get('subscription') === 'premium') return;
      if (Date.now() - began >= PENDING_SUBSCRIPTION_WAIT_MS) {
        setSlow(true);
        return;
      }
      timer = setTimeout(() => void ask(), PENDING_SUBSCRIPTION_POLL_MS);
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [account, session, app, openCount]);

  const user = session.user.value;
  return (
    <PanelFrame title={t('pending.title')} close={close} className="subscription-panel">
      <div className="subscription" data-testid="pending-subscription" data-state={!user ? 'logged-out' : premium ? 'done' : slow ? 'slow' : stored ? 'waiting' : 'checking'}>
        {!user && <p>{t('pending.loggedOut')}</p>}
        {user && premium && (
          <>
            <p role="status"><strong>{t('pending.done')}</strong></p>
            <button type="button" className="subscription-primary" onClick={close}>{t('pending.start')}</button>
          </>
        )}
        {user && !premium && (
          <>
            {!slow && <div className="subscription-spinner" aria-hidden="true" />}
            <p role="status">{slow ? t('pending.slow') : t('pending.waiting')}</p>
            <button type="button" onClick={close}>{t('pending.close')}</button>
          </>
        )}
      </div>
    </PanelFrame>
  );
}

export default withAccount(PendingSubscriptionPanel);
