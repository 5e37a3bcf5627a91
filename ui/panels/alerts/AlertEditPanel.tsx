/**
 * The alert editor (route /alerts-edit/{id}; SPEC §2, §3 "Alert", §4 "Login" pending action
 * alerts-edit): the stored alert in the form of the alerts window (AlertForm.tsx), prefilled with
 * its name and every condition; its place and forecast are shown and kept. Save writes it
 * (PUT /users/v1/data/alerts/{id}) and goes back to the alerts window, as do Cancel and Delete.
 *
 * Logged out, the window stores the pending action 'alerts-edit' with the id and opens the login:
 * after the login, the editor opens again for that alert. An id the user's alerts do not have
 * (looked up again in the cloud once, another device may just have made it) says "Alert not found".
 */

import './alerts.css';
import { useEffect, useState, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Account } from '../../account/account.ts';
import type { Alerts, StoredAlert } from '../../account/alerts.ts';
import { withAccount } from '../../services/ServicesContext.tsx';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { AlertForm } from './AlertForm.tsx';
import { alertOf, draftOf } from './alertDraft.ts';

const ALERTS_PATH = '/alerts';

function Editor({ app, alerts, alert }: { app: PanelProps['app']; alerts: Alerts; alert: StoredAlert }) {
  const { t } = useTranslation('alerts');
  const [initial] = useState(() => draftOf(alert));
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteFailed, setDeleteFailed] = useState(false);
  const back = () => void app.router.navigate(ALERTS_PATH);

  const remove = () => {
    setDeleting(true);
    setDeleteFailed(false);
    void alerts.remove(alert.id).then((ok) => {
      setDeleting(false);
      if (ok) back();
      else setDeleteFailed(true);
    });
  };

  return (
    <>
      <AlertForm initial={initial} submitLabel={t('edit.save')} saveFailed={t('edit.saveFailed')} cancel={back}
        place={t('edit.place', { lat: alert.lat.toFixed(2), lon: alert.lon.toFixed(2), product: alert.product })}
        save={async (draft) => {
          const ok = await alerts.update(alert.id, (stored) => alertOf(draft, stored));
          if (ok) back();
          return ok;
        }}>
        {!confirming && (
          <button type="button" className="alerts-danger" data-testid="alerts-delete" onClick={() => setConfirming(true)}>{t('edit.delete')}</button>
        )}
      </AlertForm>
      {confirming && (
        <div className="alerts-confirm" role="alertdialog" aria-labelledby="alerts-confirm-text" data-testid="alerts-delete-confirm">
          <p id="alerts-confirm-text">{t('edit.confirmDelete', { name: alert.name })}</p>
          {deleteFailed && <p className="alerts-error" role="alert">{t('edit.deleteFailed')}</p>}
          <div className="alerts-buttons">
            <button type="button" className="alerts-danger on" disabled={deleting} onClick={remove} data-testid="alerts-delete-yes">{t('edit.confirmYes')}</button>
            <button type="button" className="alerts-secondary" disabled={deleting} onClick={() => setConfirming(false)} data-testid="alerts-delete-no">{t('edit.confirmNo')}</button>
          </div>
        </div>
      )}
    </>
  );
}

function AlertEditPanel({ app, params, close, openCount, account }: PanelProps & { account: Account }) {
  useSignals();
  const { t } = useTranslation('alerts');
  const { session, alerts } = account;
  const id = typeof params.id === 'string' ? params.id : '';
  const loggedIn = session.loggedIn.value;
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void account.started.then(async () => {
      if (!session.loggedIn.peek()) {
        // SPEC §4: the action waits for the login (runPending in account.ts opens this window again).
        await session.requireLogin('alerts-edit', { id });
        return;
      }
      await alerts.refresh();
      if (!alerts.list.peek().some((a) => a.id === id)) await alerts.refresh(true);
    }).finally(() => {
      if (live) setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [account, session, alerts, id, openCount, loggedIn]);

  const frame = (children: ReactNode) => (
    <PanelFrame title={t('edit.title')} close={close} className="alerts-panel alerts-edit-panel">{children}</PanelFrame>
  );
  const status = (text: string, testId: string) => <p className="alerts-empty" role="status" data-testid={testId}>{text}</p>;

  if (!loggedIn) {
    return frame(loading ? status(t('edit.loading'), 'alerts-edit-loading') : (
      <div className="alerts-logged-out" data-testid="alerts-logged-out">
        <p>{t('edit.loggedOut')}</p>
        <button type="button" className="alerts-primary" onClick={() => void session.requireLogin('alerts-edit', { id })}>{t('loggedOut.login')}</button>
      </div>
    ));
  }
  const alert = alerts.list.value.find((a) => a.id === id);
  if (!alert) {
    return frame(loading ? status(t('edit.loading'), 'alerts-edit-loading') : (
      <div className="alerts-not-found" data-testid="alerts-not-found">
        <p className="alerts-not-found-title" role="alert">{t('edit.notFound')}</p>
        <p className="alerts-hint">{t('edit.notFoundHint')}</p>
        <button type="button" className="alerts-primary" onClick={() => void app.router.navigate(ALERTS_PATH)} data-testid="alerts-back">{t('edit.back')}</button>
      </div>
    ));
  }
  return frame(<Editor key={alert.id} app={app} alerts={alerts} alert={alert} />);
}

export default withAccount(AlertEditPanel);
