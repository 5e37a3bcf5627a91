/**
 * The alert form (SPEC §3 "Alert"), shared by the alerts window (a new alert at the map's centre)
 * and the alert editor (route /alerts-edit/{id}, prefilled from the stored alert): the name, the
 * place it is kept for, and each condition type with its values, directions, weekdays, cloud
 * classes and hours. Values are typed in metric units (alertDraft.ts converts them). Problems show
 * beside their condition once the user tried to save; nothing is sent while there are any.
 */

import './alerts.css';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_NAME_MAX_LENGTH, ALERT_WINDOW_HOURS_MAX, CLOUD_CLASSES, DIRECTIONS, WEEKDAYS, type AlertConditionType } from '../../../common/alerts.ts';
import { draftProblems, toggled, type Draft, type DraftField } from './alertDraft.ts';

function Chips<T extends string>({ all, chosen, onChange, label, testId, legend }: {
  all: readonly T[]; chosen: readonly T[]; onChange(next: T[]): void; label(v: T): string; testId: string; legend: string;
}) {
  return (
    <div className="alerts-chips" data-testid={testId} role="group" aria-label={legend}>
      {all.map((v) => (
        <label key={v} className={chosen.includes(v) ? 'alerts-chip on' : 'alerts-chip'} data-value={v}>
          <input type="checkbox" checked={chosen.includes(v)} onChange={() => onChange(toggled(all, chosen, v))} />{label(v)}
        </label>
      ))}
    </div>
  );
}

export interface AlertFormProps {
  initial: Draft;
  /** The line that says where the alert is kept (and for which forecast). */
  place: string;
  submitLabel: string;
  /** Sends the checked draft; false when it could not be saved (then `saveFailed` shows). */
  save(draft: Draft): Promise<boolean>;
  saveFailed: string;
  cancel(): void;
  /** More buttons after Save and Cancel (the editor's Delete). */
  children?: ReactNode;
}

export function AlertForm({ initial, place, submitLabel, save, saveFailed, cancel, children }: AlertFormProps) {
  const { t } = useTranslation('alerts');
  const [d, setD] = useState(initial);
  const [tried, setTried] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  const problems = tried ? draftProblems(d) : [];
  const problemOf = (type: AlertConditionType) => (problems.includes(type) ? t(`problems.${type}`, { max: ALERT_WINDOW_HOURS_MAX }) : null);

  const field = (key: DraftField, label: string, attrs: { step?: string; min?: number; max?: number; invalid?: boolean } = {}) => {
    const { invalid, ...limits } = attrs;
    return (
      <label className="alerts-field">
        <span>{label}</span>
        <input type="number" inputMode="decimal" value={d[key]} {...limits} aria-invalid={invalid || undefined} data-testid={`alerts-field-${key}`}
          onChange={(e) => set({ [key]: e.currentTarget.value } as Partial<Draft>)} />
      </label>
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setFailed(false);
    if (draftProblems(d).length) return;
    setBusy(true);
    void save(d).then((ok) => {
      setBusy(false);
      if (!ok) setFailed(true);
    });
  };

  const body = (type: AlertConditionType, invalid: boolean): ReactNode => {
    switch (type) {
      case 'wind': return <>
        <div className="alerts-row">
          {field('windMin', t('form.windMin'), { step: '0.5', min: 0, invalid })}
          {field('windMax', t('form.windMax'), { step: '0.5', min: 0, invalid })}
        </div>
        <Chips all={DIRECTIONS} chosen={d.windDirs} onChange={(windDirs) => set({ windDirs })} label={(v) => t(`directions.${v}`)}
          testId="alerts-wind-dirs" legend={t('form.directionsHint')} />
        <p className="alerts-hint">{t('form.directionsHint')}</p>
      </>;
      case 'temperature': return <div className="alerts-row">
        {field('tempMin', t('form.tempMin'), { step: '0.5', invalid })}
        {field('tempMax', t('form.tempMax'), { step: '0.5', invalid })}
      </div>;
      case 'rainfall': return <div className="alerts-row">
        {field('rainMin', t('form.rainMin'), { step: '0.5', min: 0, invalid })}
        {field('rainMax', t('form.rainMax'), { step: '0.5', min: 0, invalid })}
        {field('rainHours', t('form.hours'), { min: 1, max: ALERT_WINDOW_HOURS_MAX, invalid })}
      </div>;
      case 'cloudiness': return (
        <Chips all={CLOUD_CLASSES} chosen={d.clouds} onChange={(clouds) => set({ clouds })} label={(v) => t(`clouds.${v}`)}
          testId="alerts-clouds" legend={t('types.cloudiness')} />
      );
      case 'freshSnow': return <div className="alerts-row">
        {field('snowMin', t('form.snowMin'), { min: 0, invalid })}
        {field('snowHours', t('form.hours'), { min: 1, max: ALERT_WINDOW_HOURS_MAX, invalid })}
      </div>;
      case 'swell': return <>
        <div className="alerts-row">
          {field('swellMin', t('form.swellMin'), { step: '0.1', min: 0, invalid })}
          {field('swellMax', t('form.swellMax'), { step: '0.1', min: 0, invalid })}
        </div>
        <Chips all={DIRECTIONS} chosen={d.swellDirs} onChange={(swellDirs) => set({ swellDirs })} label={(v) => t(`directions.${v}`)}
          testId="alerts-swell-dirs" legend={t('form.swellDirectionsHint')} />
        <p className="alerts-hint">{t('form.swellDirectionsHint')}</p>
      </>;
      case 'time': return <>
        <Chips all={WEEKDAYS} chosen={d.days} onChange={(days) => set({ days })} label={(v) => t(`weekdays.${v}`)} testId="alerts-days" legend={t('types.time')} />
        <div className="alerts-row">
          {field('fromHour', t('form.fromHour'), { min: 0, max: 23, invalid })}
          {field('toHour', t('form.toHour'), { min: 1, max: 24, invalid })}
        </div>
      </>;
    }
  };

  const nameProblem = problems.includes('name');
  return (
    <form className="alerts-form" onSubmit={submit} noValidate data-testid="alerts-form" aria-busy={busy}>
      <label className="alerts-field alerts-name">
        <span>{t('form.name')}</span>
        <input value={d.name} maxLength={ALERT_NAME_MAX_LENGTH} required aria-invalid={nameProblem || undefined}
          aria-describedby={nameProblem ? 'alerts-name-problem' : undefined}
          onChange={(e) => set({ name: e.currentTarget.value })} data-testid="alerts-name" />
        {nameProblem && <span className="alerts-problem" id="alerts-name-problem" data-testid="alerts-problem-name">{t('problems.name')}</span>}
      </label>
      <p className="alerts-place" data-testid="alerts-place">{place}</p>
      {d.order.map((type) => {
        const problem = d.on[type] ? problemOf(type) : null;
        return (
          <fieldset key={type} className={['alerts-condition', d.on[type] ? 'on' : '', problem ? 'invalid' : ''].filter(Boolean).join(' ')} data-condition={type}>
            <legend>
              <label>
                <input type="checkbox" checked={d.on[type]} data-testid={`alerts-on-${type}`} onChange={() => set({ on: { ...d.on, [type]: !d.on[type] } })} />
                {t(`types.${type}`)}
              </label>
            </legend>
            {d.on[type] && body(type, problem !== null)}
            {problem && <p className="alerts-problem" data-testid={`alerts-problem-${type}`}>{problem}</p>}
          </fieldset>
        );
      })}
      {problems.includes('none') && <p className="alerts-problem" data-testid="alerts-problem-none">{t('problems.none')}</p>}
      {(problems.length > 0 || failed) && (
        <p className="alerts-error" role="alert" data-testid="alerts-error">{failed ? saveFailed : t('form.invalid')}</p>
      )}
      <div className="alerts-buttons">
        <button type="submit" className="alerts-primary" disabled={busy} data-testid="alerts-save">{submitLabel}</button>
        <button type="button" className="alerts-secondary" onClick={cancel} data-testid="alerts-cancel">{t('form.cancel')}</button>
        {children}
      </div>
    </form>
  );
}
