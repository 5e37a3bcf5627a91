/**
 * The subscription window (route /subscription; SPEC §2 "Subscription windows", §1 "Premium
 * gives", §3 "Subscription info", §4 "Subscription"): what Premium gives, where the account stands
 * (logged out, free, active or trial with its end, an issue state with the banner's words) and the
 * way to pay: Stripe Checkout (ui/account/checkout.ts). A server without a Stripe key says that its
 * administrator grants Premium.
 */

import './subscription.css';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { ACTIVE_STATUS, msUntilExpiry } from '../../../common/entitlements.ts';
import type { Account } from '../../account/account.ts';
import { startCheckout, type CheckoutResult } from '../../account/checkout.ts';
import { subscriptionBanner } from '../../account/subscription.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { withAccount } from '../../services/ServicesContext.tsx';

const BENEFITS = ['steps', 'range', 'zoom', 'updates'] as const;

function SubscriptionPanel({ app, close, openCount, account }: PanelProps & { account: Account }) {
  useSignals();
  const { t, i18n } = useTranslation('subscription');
  const { session } = account;
  const [checkout, setCheckout] = useState<CheckoutResult | 'busy' | null>(null);

  useEffect(() => {
    void account.started.then(() => session.refreshSubscription()).catch(() => undefined);
  }, [account, session, openCount]);

  const user = session.user.value;
  const info = account.subscriptionInfo.value;
  const active = info?.status === ACTIVE_STATUS;
  const now = Date.now();
  const remaining = info ? msUntilExpiry(info, now) : null;
  const until = remaining !== null && remaining > 0
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(now + remaining))
    : null;
  const issue = info && !active ? subscriptionBanner(info, now, () => {}) : null;

  const pay = () => {
    setCheckout('busy');
    void startCheckout(account.request, (url) => location.assign(url)).then(setCheckout);
  };

  return (
    <PanelFrame title={t('window.title')} close={close} className="subscription-panel">
      <div className="subscription" data-testid="subscription" data-status={info?.status ?? (user ? 'free' : 'logged-out')}>
        <p className="subscription-intro">{t('window.intro')}</p>
        <ul className="subscription-benefits">
          {BENEFITS.map((b) => <li key={b}>{t(`window.${b}`)}</li>)}
        </ul>
        {!user && (
          <>
            <p>{t('window.loggedOut')}</p>
            <button type="button" className="subscription-primary" onClick={() => void app.router.navigate('/login')}>{t('window.login')}</button>
          </>
        )}
        {user && active && (
          <div className="subscription-state" role="status">
            <p><strong>{info?.isTrial ? t('window.trial') : t('window.active')}</strong></p>
            {until && <p>{t('window.until', { date: until })}</p>}
          </div>
        )}
        {user && !active && (
          <>
            {issue
              ? <p className="subscription-issue" role="status">{t(issue.key.replace(/^subscription:/, ''), issue.params)}</p>
              : info?.status
                ? <p role="status">{t('window.status', { status: info.status })}</p>
                : <p role="status">{t('window.free')}</p>}
            <button type="button" className="subscription-primary" data-testid="subscription-checkout" disabled={checkout === 'busy' || checkout?.kind === 'redirected'} onClick={pay}>
              {info?.status ? t('window.renew') : t('window.get')}
            </button>
            {(checkout === 'busy' || checkout?.kind === 'redirected') && <p className="subscription-note">{t('window.opening')}</p>}
            {checkout !== 'busy' && checkout?.kind === 'unavailable' && <p className="subscription-note" role="alert" data-testid="subscription-unavailable">{t('window.noPayments')}</p>}
            {checkout !== 'busy' && checkout?.kind === 'failed' && <p className="subscription-error" role="alert">{t('window.failed')}</p>}
          </>
        )}
      </div>
    </PanelFrame>
  );
}

export default withAccount(SubscriptionPanel);
