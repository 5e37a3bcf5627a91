/**
 * The alerts window (route /alerts; SPEC §3 "Alert", §4 "Alerts cached 30 min", §6: alerts need
 * login): the user's alerts with their state, each suspended / resumed or removed, the times the
 * server found for a triggered one, the notification count (newCount) and a form that adds an
 * alert at the map's centre for the shown product with any of the condition types (wind,
 * temperature, rainfall, cloudiness, fresh snow, swell, time). Values are typed in metric units
 * and stored in the base units of common/alerts.ts (m/s, K, mm, cm, m).
 */

import './alerts.css';
import { useEffect, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import {
  CLOUD_CLASSES, DIRECTIONS, WEEKDAYS, type Alert, type AlertCondition, type AlertConditionType, type CloudClass, type Direction, type Weekday,
} from '../../../common/alerts.ts';
import { startAccount } from '../../account/account.ts';
import type { StoredAlert } from '../../account/alerts.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';

const KELVIN = 273.15;
/** The form's order: the most asked-for first. */
const FORM_ORDER: readonly AlertConditionType[] = ['wind', 'temperature', 'rainfall', 'cloudiness', 'freshSnow', 'swell', 'time'];

interface Draft {
  name: string;
  on: Record<AlertConditionType, boolean>;
  windMin: string; windDirs: Direction[];
  tempMin: string; tempMax: string;
  rainMin: string; rainHours: string;
  clouds: CloudClass[];
  snowMin: string; snowHours: string;
  swellMin: string;
  days: Weekday[]; fromHour: string; toHour: string;
}

const emptyDraft = (name: string): Draft => ({
  name,
  on: { wind: true, temperature: false, rainfall: false, cloudiness: false, freshSnow: false, swell: false, time: false },
  windMin: '10', windDirs: [], tempMin: '', tempMax: '', rainMin: '5', rainHours: '24', clouds: ['SKC', 'FEW'],
  snowMin: '10', snowHours: '24', swellMin: '1.5', days: [...WEEKDAYS], fromHour: '8', toHour: '20',
});

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function conditionsOf(d: Draft): AlertCondition[] {
  const out: AlertCondition[] = [];
  if (d.on.wind) out.push(defined({ type: 'wind' as const, min: num(d.windMin), directions: d.windDirs.length ? d.windDirs : undefined }));
  if (d.on.temperature) {
    const min = num(d.tempMin);
    const max = num(d.tempMax);
    out.push(defined({ type: 'temperature' as const, min: min === undefined ? undefined : min + KELVIN, max: max === undefined ? undefined : max + KELVIN }));
  }
  if (d.on.rainfall) out.push({ type: 'rainfall', min: num(d.rainMin), hours: Number(d.rainHours) });
  if (d.on.cloudiness) out.push({ type: 'cloudiness', classes: d.clouds });
  if (d.on.freshSnow) out.push({ type: 'freshSnow', min: Number(d.snowMin), hours: Number(d.snowHours) });
  if (d.on.swell) out.push(defined({ type: 'swell' as const, min: num(d.swellMin) }));
  if (d.on.time) out.push({ type: 'time', weekdays: d.days, fromHour: Number(d.fromHour), toHour: Number(d.toHour) });
  return out;
}

function toggle<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

function Chips<T extends string>({ all, chosen, onChange, label, testId }: { all: readonly T[]; chosen: readonly T[]; onChange(next: T[]): void; label(v: T): string; testId: string }) {
  return (
    <div className="alerts-chips" data-testid={testId}>
      {all.map((v) => (
        <label key={v} className={chosen.includes(v) ? 'alerts-chip on' : 'alerts-chip'}>
          <input type="checkbox" checked={chosen.includes(v)} onChange={() => onChange(toggle(chosen, v))} />{label(v)}
        </label>
      ))}
    </div>
  );
}

function AlertForm({ app, done }: Pick<PanelProps, 'app'> & { done(): void }) {
  const { t } = useTranslation('alerts');
  const { alerts } = startAccount(app);
  const lat = Math.round(app.map.lat.peek() * 100) / 100;
  const lon = Math.round(app.map.lon.peek() * 100) / 100;
  const [d, setD] = useState(() => emptyDraft(t('form.defaultName', { lat: lat.toFixed(2), lon: lon.toFixed(2) })));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  const field = (key: keyof Draft, label: string, attrs: { step?: string; min?: number; max?: number } = {}) => (
    <label className="alerts-field">
      <span>{label}</span>
      <input type="number" inputMode="decimal" value={d[key] as string} {...attrs} onChange={(e) => set({ [key]: e.currentTarget.value } as Partial<Draft>)} />
    </label>
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const alert: Alert = { lat, lon, name: d.name, product: app.layer.product.peek(), state: 'normal', conditions: conditionsOf(d) };
    setBusy(true);
    setError(null);
    void alerts.add(alert).then((added) => {
      setBusy(false);
      if (added) done();
      else setError(t('form.invalid'));
    });
  };

  return (
    <form className="alerts-form" onSubmit={submit} data-testid="alerts-form">
      <label className="alerts-field alerts-name">
        <span>{t('form.name')}</span>
        <input value={d.name} maxLength={200} required onChange={(e) => set({ name: e.currentTarget.value })} data-testid="alerts-name" />
      </label>
      <p className="alerts-place">{t('form.place', { lat: lat.toFixed(2), lon: lon.toFixed(2), product: app.layer.product.value })}</p>
      {FORM_ORDER.map((type) => (
        <fieldset key={type} className={d.on[type] ? 'alerts-condition on' : 'alerts-condition'} data-condition={type}>
          <legend>
            <label>
              <input type="checkbox" checked={d.on[type]} data-testid={`alerts-on-${type}`} onChange={() => set({ on: { ...d.on, [type]: !d.on[type] } })} />
              {t(`types.${type}`)}
            </label>
          </legend>
          {d.on[type] && type === 'wind' && <>
            {field('windMin', t('form.windMin'), { step: '0.5', min: 0 })}
            <Chips all={DIRECTIONS} chosen={d.windDirs} onChange={(windDirs) => set({ windDirs })} label={(v) => t(`directions.${v}`)} testId="alerts-wind-dirs" />
            <p className="alerts-hint">{t('form.directionsHint')}</p>
          </>}
          {d.on[type] && type === 'temperature' && <div className="alerts-row">
            {field('tempMin', t('form.tempMin'), { step: '0.5' })}
            {field('tempMax', t('form.tempMax'), { step: '0.5' })}
          </div>}
          {d.on[type] && type === 'rainfall' && <div className="alerts-row">
            {field('rainMin', t('form.rainMin'), { step: '0.5', min: 0 })}
            {field('rainHours', t('form.hours'), { min: 1, max: 72 })}
          </div>}
          {d.on[type] && type === 'cloudiness' && (
            <Chips all={CLOUD_CLASSES} chosen={d.clouds} onChange={(clouds) => set({ clouds })} label={(v) => t(`clouds.${v}`)} testId="alerts-clouds" />
          )}
          {d.on[type] && type === 'freshSnow' && <div className="alerts-row">
            {field('snowMin', t('form.snowMin'), { min: 0 })}
            {field('snowHours', t('form.hours'), { min: 1, max: 72 })}
          </div>}
          {d.on[type] && type === 'swell' && field('swellMin', t('form.swellMin'), { step: '0.1', min: 0 })}
          {d.on[type] && type === 'time' && <>
            <Chips all={WEEKDAYS} chosen={d.days} onChange={(days) => set({ days })} label={(v) => t(`weekdays.${v}`)} testId="alerts-days" />
            <div className="alerts-row">
              {field('fromHour', t('form.fromHour'), { min: 0, max: 23 })}
              {field('toHour', t('form.toHour'), { min: 1, max: 24 })}
            </div>
          </>}
        </fieldset>
      ))}
      {error && <p className="alerts-error" role="alert" data-testid="alerts-error">{error}</p>}
      <div className="alerts-buttons">
        <button type="submit" className="alerts-primary" disabled={busy} data-testid="alerts-save">{t('form.save')}</button>
        <button type="button" className="alerts-secondary" onClick={done}>{t('form.cancel')}</button>
      </div>
    </form>
  );
}

function summary(t: (key: string, o?: Record<string, unknown>) => string, c: AlertCondition): string {
  switch (c.type) {
    case 'wind': return t('summary.wind', { min: c.min ?? 0, dirs: c.directions?.map((d) => t(`directions.${d}`)).join(' ') ?? t('summary.any') });
    case 'temperature': {
      const min = c.min === undefined ? undefined : (c.min - KELVIN).toFixed(1);
      const max = c.max === undefined ? undefined : (c.max - KELVIN).toFixed(1);
      if (min === undefined) return t('summary.temperatureMax', { max });
      return max === undefined ? t('summary.temperatureMin', { min }) : t('summary.temperature', { min, max });
    }
    case 'rainfall': return t('summary.rainfall', { min: c.min ?? 0, hours: c.hours });
    case 'cloudiness': return t('summary.cloudiness', { classes: c.classes.join(' ') });
    case 'freshSnow': return t('summary.freshSnow', { min: c.min, hours: c.hours });
    case 'swell': return t('summary.swell', { min: c.min ?? 0 });
    case 'time': return t('summary.time', { days: c.weekdays.map((d) => t(`weekdays.${d}`)).join(' '), from: c.fromHour, to: c.toHour });
  }
}

function AlertRow({ app, alert }: { app: PanelProps['app']; alert: StoredAlert }) {
  const { t } = useTranslation('alerts');
  const { alerts } = startAccount(app);
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

export default function AlertsPanel({ app, close, openCount }: PanelProps) {
  useSignals();
  const { t } = useTranslation('alerts');
  const account = startAccount(app);
  const { session, alerts } = account;
  const user = session.user.value;
  const [adding, setAdding] = useState(false);
  const [syncing, setSyncing] = useState(true);
  const [notifBusy, setNotifBusy] = useState(false);
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
      await alerts.notifications().catch(() => undefined);
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
  const newCount = alerts.newCount.value;
  return (
    <PanelFrame title={t('title')} close={close} className="alerts-panel">
      <div className="alerts-bar">
        <span className="alerts-badge" data-testid="alerts-new-count" data-count={newCount}>{t('notifications', { count: newCount })}</span>
        {!adding && <button type="button" className="alerts-primary" onClick={() => setAdding(true)} data-testid="alerts-add">{t('add')}</button>}
      </div>
      <div className="alerts-notif-actions">
        <button type="button" data-testid="alerts-send-test" disabled={notifBusy} onClick={() => notifRun(async () => {
          await account.request('POST', '/notif/v1/notifications/send-test', { notificationType: 'test' });
          await alerts.notifications();
        })}>{t('sendTest')}</button>
        {newCount > 0 && <button type="button" data-testid="alerts-clear" disabled={notifBusy} onClick={() => notifRun(() => alerts.clearNotifications())}>{t('clear')}</button>}
      </div>
      {adding && <AlertForm app={app} done={() => setAdding(false)} />}
      {list.length === 0
        ? !adding && <p className="alerts-empty" role="status" data-testid="alerts-empty">{syncing ? t('loading') : t('empty')}</p>
        : <ul className="alerts-list" data-testid="alerts-list">{list.map((a) => <AlertRow key={a.id} app={app} alert={a} />)}</ul>}
    </PanelFrame>
  );
}
