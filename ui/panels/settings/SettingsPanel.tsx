/**
 * Settings (route /settings; SPEC §3 Settings): language, units (metric or imperial, or one unit
 * per quantity), clock, particle animation and start-up position. Each control writes the settings
 * store, which checks the value (SPEC §5) and saves it; synced keys carry their update time.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../../common/languages.ts';
import { START_UP_ZOOM_MAX } from '../../../common/settings.ts';
import { MIN_ZOOM } from '../../../common/map.ts';
import { changeLanguage, chooseLanguage } from '../../i18n.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';

/** The quantities a user meets on the map and in forecasts, in this order. */
const SHOWN_METRICS = ['wind', 'temp', 'rain', 'precip', 'pressure', 'waves', 'snow', 'altitude', 'distance'];

function Choice<T extends string | number>({ name, value, options, label, onChange }: {
  name: string; value: T; options: readonly { value: T; label: string }[]; label: string; onChange(value: T): void;
}) {
  return (
    <fieldset className="settings-choice" data-setting={name}>
      <legend>{label}</legend>
      {options.map((o) => (
        <label key={String(o.value)} className={o.value === value ? 'active' : undefined}>
          <input type="radio" name={name} checked={o.value === value} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

export default function SettingsPanel({ app, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('settings');
  const s = app.settings;
  const lang = s.get('lang') as string;
  const setLanguage = (value: string) => {
    if (!s.set('lang', value as never)) return;
    const next = chooseLanguage(null, value, navigator.languages ?? [navigator.language]);
    s.set('usedLang', next);
    void changeLanguage(next);
  };
  const system = s.get('defaultUnits') as string;
  const metrics = SHOWN_METRICS.filter((m) => METRICS[m]);
  return (
    <PanelFrame title={t('title')} close={close} className="settings-panel">
      <label className="settings-row">
        <span>{t('language')}</span>
        <select value={lang} onChange={(e) => setLanguage(e.currentTarget.value)} data-testid="settings-lang">
          <option value="auto">{t('languageAuto')}</option>
          {LANGUAGES.map((l: Language) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
        </select>
      </label>

      <Choice name="defaultUnits" label={t('units')} value={system === 'unset' ? (app.units.unitOf('temp') === '°F' ? 'imperial' : 'metric') : system}
        options={[{ value: 'metric', label: t('unitsMetric') }, { value: 'imperial', label: t('unitsImperial') }]}
        onChange={(v) => app.units.setSystem(v as 'metric' | 'imperial')} />

      <div className="settings-metrics">
        {metrics.map((ident) => (
          <label key={ident} className="settings-row">
            <span>{t(`metric.${ident}`)}</span>
            <select value={app.units.units.value[ident]} data-metric={ident} onChange={(e) => app.units.setUnit(ident, e.currentTarget.value)}>
              {METRICS[ident].units.map((u) => <option key={u} value={u}>{u}</option>)}
            </select>
          </label>
        ))}
      </div>

      <Choice name="hourFormat" label={t('clock')} value={app.units.hour12.value ? '12h' : '24h'}
        options={[{ value: '24h', label: t('clock24') }, { value: '12h', label: t('clock12') }]}
        onChange={(v) => s.set('hourFormat', v as '12h' | '24h')} />

      <Choice name="particlesAnim" label={t('particles')} value={s.get('particlesAnim') as string}
        options={[{ value: 'on', label: t('particlesOn') }, { value: 'intensive', label: t('particlesIntensive') }, { value: 'off', label: t('particlesOff') }]}
        onChange={(v) => s.set('particlesAnim', v as never)} />

      <Choice name="basemapStyle" label={t('basemapStyle')} value={s.get('basemapStyle') as string}
        options={[{ value: 'gray', label: t('basemapGray') }, { value: 'simple', label: t('basemapSimple') }, { value: 'landmask', label: t('basemapLandmask') }]}
        onChange={(v) => s.set('basemapStyle', v as never)} />

      <Choice name="startUp" label={t('startUp')} value={s.get('startUp') as string}
        options={[
          { value: 'last', label: t('startUpLast') }, { value: 'location', label: t('startUpHome') },
          { value: 'ip', label: t('startUpIp') }, { value: 'gps', label: t('startUpGps') },
        ]}
        onChange={(v) => s.set('startUp', v as never)} />

      <label className="settings-row">
        <span>{t('startUpZoom')}</span>
        <select value={String(s.get('startUpZoom') ?? '')} data-testid="settings-startup-zoom"
          onChange={(e) => s.set('startUpZoom', e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}>
          <option value="">{t('startUpZoomAuto')}</option>
          {Array.from({ length: START_UP_ZOOM_MAX - MIN_ZOOM + 1 }, (_, i) => MIN_ZOOM + i).map((z) => <option key={z} value={z}>{z}</option>)}
        </select>
      </label>

      <p className="settings-note">{s.persistent.value ? t('savedHere') : t('memoryOnly')}</p>
    </PanelFrame>
  );
}
