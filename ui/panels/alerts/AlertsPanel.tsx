/**
 * The alerts window (route /alerts; SPEC §3 "Alert", §4 "Alerts cached 30 min", §6: alerts need
 * login): the user's alerts with their state, each edited (/alerts-edit/{id}, AlertEditPanel.tsx),
 * suspended / resumed or removed, the times the server found for a triggered one, the notification
 * count (newCount) and a form (AlertForm.tsx) that adds an alert at the map's centre for the shown
 * product with any of the condition types (wind, temperature, rainfall, cloudiness, fresh snow,
 * swell, time). Opening the window marks the notifications opened: the menu's badge goes to 0,
 * while the window still says how many were new when it opened.
 */

import './alerts.css';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { SEND_TEST_PATH } from '../../../common/api/notifications.ts';
import type { Alert, AlertCondition } from '../../../common/alerts.ts';
import type { Account } from '../../account/account.ts';
import type { Alerts, StoredAlert } from '../../account/alerts.ts';
import { withAccount } from '../../services/ServicesContext.tsx';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { AlertForm } from './AlertForm.tsx';
import { PushToggle } from './PushToggle.tsx';
import { alertOf, emptyDraft, KELVIN } from './alertDraft.ts';

/** A new alert at the map's centre for the shown product. */
function NewAlertForm({ app, alerts, done }: Pick<PanelProps, 'app'> & { alerts: Alerts; done(): void }) {
  const { t } = useTranslation('alerts');
  const [initial] = useState(() => {
    const lat = Math.round(app.map.lat.peek() * 100) / 100;
    const lon = Math.round(app.map.lon.peek() * 100) / 100;
    const base: Alert = { lat, lon, name: '', product: app.layer.product.peek(), state: 'normal', conditions: [] };
    return { base, draft: emptyDraft(t('form.defaultName', { lat: lat.toFixed(2), lon: lon.toFixed(2) })) };
  });
  const { base, draft } = initial;
  return (
    <AlertForm initial={draft} submitLabel={t('form.save')} saveFailed={t('form.saveFailed')} cancel={done}
      place={t('form.place', { lat: base.lat.toFixed(2), lon: base.lon.toFixed(2), product: base.product })}
      save={async (d) => {
        const added = await alerts.add(alertOf(d, base));
        if (added) done();
        return added !== null;
      }} />
  );
}

function summary(t: (key: string, o?: Record<string, unknown>) => string, c: AlertCondition): string {
  const dirs = (list: readonly string[] | undefined) => list?.map((d) => t(`directions.${d}`)).join(' ') ?? t('summary.any');
  switch (c.type) {
    case 'wind': return c.max === undefined
      ? t('summary.wind', { min: c.min ?? 0, dirs: dirs(c.directions) })
      : t('summary.windRange', { min: c.min ?? 0, max: c.max, dirs: dirs(c.directions) });
    case 'temperature': {
      const min = c.min === undefined ? undefined : (c.min - KELVIN).toFixed(1);
      const max = c.max === undefined ? undefined : (c.max - KELVIN).toFixed(1);
      if (min === undefined) return t('summary.temperatureMax', { max });
      return max === undefined ? t('summary.temperatureMin', { min }) : t('summary.temperature', { min, max });
    }
    case 'rainfall': return c.max === undefined
      ? t('summary.rainfall', { min: c.min ?? 0, hours: c.hours })
      : t('summary.rainfallRange', { min: c.min ?? 0, max: c.max, hours: c.hours });
    case 'cloudiness': return t('summary.cloudiness', { classes: c.classes.map((k) => t(`clouds.${k}`)).join(', ') });
    case 'freshSnow': return t('summary.freshSnow', { min: c.min, hours: c.hours });
    case 'swell': {
      const waves = c.max === undefined ? t('summary.swell', { min: c.min ?? 0 }) : t('summary.swellRange', { min: c.min ?? 0, max: c.max });
      return c.directions ? t('summary.swellFrom', { waves, dirs: dirs(c.directions) }) : waves;
    }
    case 'time': return t('summary.time', { days: c.weekdays.map((d) => t(`weekdays.${d}`)).join(' '), from: c.fromHour, to: c.toHour });
  }
}

function AlertRow({ app, alerts, alert }: { app: PanelProps['app']; alerts: Alerts; alert: StoredAlert }) {
  const { t } = useTranslation('alerts');
  const [busy, setBusy] = useState(false);
  const [times, setTimes] = useState<number[] | null>(null);
  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    void action().finally(() => setBusy(false));
  };
  const suspended = alert.state === 'suspended';
  return (
    <li className={`alert alert-${alert.state}`} data-testid="alert" data-state={alert.state}>
      <div className="alert-head">
        <span className="alert-name">{alert.name}</span>
        <span className="alert-state" data-testid="alert-state">{t(`states.${alert.state}`)}</span>
      </div>
      <ul className="alert-conditions">{alert.conditions.map((c) => <li key={c.type}>{summary(t, c)}</li>)}</ul>
      {times && <p className="alert-times" data-testid="alert-times">{times.length === 0 ? t('times.none')
        : t('times.list', { count: times.length, first: new Date(times[0]).toLocaleString() })}</p>}
      <div className="alert-actions">
        <button type="button" disabled={busy} data-testid="alert-edit" aria-label={t('item.editLabel', { name: alert.name })}
          onClick={() => void app.router.navigate(`/alerts-edit/${encodeURIComponent(alert.id)}`)}>{t('item.edit')}</button>
        <button type="button" disabled={busy} onClick={() => run(async () => setTimes(await alerts.timestamps(alert.id).catch(() => [])))} data-testid="alert-times-button">{t('item.times')}</button>
        <button type="button" disabled={busy} data-testid="alert-suspend" onClick={() => run(() => alerts.setState(alert.id, suspended ? 'normal' : 'suspended'))}>
          {suspended ? t('item.resume') : t('item.suspend')}
        </button>
        <button type="button" disabled={busy} className="alert-remove" data-testid="alert-remove" aria-label={t('item.removeLabel', { name: alert.name })}
          onClick={() => run(() => alerts.remove(alert.id))}>{t('item.remove')}</button>
      </div>
    </li>
  );
}

function AlertsPanel({ app, close, openCount, account }: PanelProps & { account: Account }) {
  useSignals();
  const { t } = useTranslation('alerts');
  const { session, alerts } = account;
  const user = session.user.value;
  const [adding, setAdding] = useState(false);
  const [syncing, setSyncing] = useState(true);
  const [notifBusy, setNotifBusy] = useState(false);
  /** How many notifications were new when the window opened (marked opened since; the badge says 0). */
  const [newAtOpen, setNewAtOpen] = useState(0);
  const notifRun = (action: () => Promise<unknown>) => {
    setNotifBusy(true);
    void action().catch((error: unknown) => console.error('Notification request failed', error)).finally(() => setNotifBusy(false));
  };

  useEffect(() => {
    let live = true;
    setSyncing(true);
    void account.started.then(async () => {
      if (!session.loggedIn.peek()) return;
      await alerts.refresh();
      const answer = await alerts.notifications().catch(() => null);
      if (!answer || answer.newCount === 0) return;
      await alerts.markOpened();
      if (live) setNewAtOpen(answer.newCount);
    }).catch((error: unknown) => {
      console.error('Notifications not marked opened', error);
    }).finally(() => {
      if (live) setSyncing(false);
    });
    return () => {
      live = false;
    };
  }, [account, session, alerts, openCount]);

  if (!user) {
    return (
      <PanelFrame title={t('title')} close={close} className="alerts-panel">
        <div className="alerts-logged-out" data-testid="alerts-logged-out">
          <p>{t('loggedOut.text')}</p>
          <button type="button" className="alerts-primary" onClick={() => void session.requireLogin('alerts-edit')}>{t('loggedOut.login')}</button>
        </div>
      </PanelFrame>
    );
  }
  const list = alerts.list.value;
  const newCount = alerts.newCount.value + newAtOpen;
  return (
    <PanelFrame title={t('title')} close={close} className="alerts-panel">
      <div className="alerts-bar">
        <span className="alerts-badge" data-testid="alerts-new-count" data-count={newCount}>{t('notifications', { count: newCount })}</span>
        {!adding && <button type="button" className="alerts-primary" onClick={() => setAdding(true)} data-testid="alerts-add">{t('add')}</button>}
      </div>
      <div className="alerts-notif-actions">
        <button type="button" data-testid="alerts-send-test" disabled={notifBusy} onClick={() => notifRun(async () => {
          await account.request('POST', SEND_TEST_PATH, { notificationType: 'test' });
          await alerts.notifications();
        })}>{t('sendTest')}</button>
        {newCount > 0 && <button type="button" data-testid="alerts-clear" disabled={notifBusy} onClick={() => notifRun(async () => {
          await alerts.clearNotifications();
          setNewAtOpen(0);
        })}>{t('clear')}</button>}
      </div>
      <PushToggle account={account} />
      {adding && <NewAlertForm app={app} alerts={alerts} done={() => setAdding(false)} />}
      {list.length === 0
        ? !adding && <p className="alerts-empty" role="status" data-testid="alerts-empty">{syncing ? t('loading') : t('empty')}</p>
        : <ul className="alerts-list" data-testid="alerts-list">{list.map((a) => <AlertRow key={a.id} app={app} alerts={alerts} alert={a} />)}</ul>}
    </PanelFrame>
  );
}

export default withAccount(AlertsPanel);
