/**
 * Web Push on this device, in the alerts window (ui/account/push.ts): its state in words, a button
 * to turn it on (asks the browser's permission, from this click) or off. The window's "send a test
 * notification" reaches this device too once it is on.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Account } from '../../account/account.ts';

export function PushToggle({ account }: { account: Account }) {
  useSignals();
  const { t } = useTranslation('alerts');
  const { push } = account;
  const state = push.state.value;
  const text = state === 'failed' ? t('push.failed', { reason: push.error.value ?? '' })
    : state === 'on' ? t('push.on')
      : state === 'unsupported' ? t('push.unsupported')
        : state === 'denied' ? t('push.denied')
          : state === 'busy' ? t('push.busy') : t('push.off');
  return (
    <section className="alerts-push" data-push-state={state} aria-live="polite">
      <h3>{t('push.title')}</h3>
      <p>{text}</p>
      <div className="alerts-push-actions">
        {state === 'on'
          ? <button type="button" onClick={() => void push.disable()}>{t('push.disable')}</button>
          : state === 'off' || state === 'failed'
            ? <button type="button" className="alerts-primary" onClick={() => void push.enable()}>{t('push.enable')}</button>
            : null}
      </div>
    </section>
  );
}
