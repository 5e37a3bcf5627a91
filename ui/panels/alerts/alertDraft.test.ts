import { describe, expect, it } from 'vitest';
import {
  ALERT_CONDITION_TYPES, CLOUD_CLASSES, DIRECTIONS, validateAlert, WEEKDAYS, type Alert, type AlertCondition, type AlertConditionType,
} from '../../../common/alerts.ts';
import { alertOf, conditionsOf, draftOf, draftProblems, emptyDraft, FORM_ORDER, toggled, type Draft } from './alertDraft.ts';

const base = (conditions: AlertCondition[], extra: Partial<Alert> = {}): Alert => ({
  lat: 50.08, lon: 14.42, name: 'Prague', product: 'ecmwf', state: 'normal', conditions, ...extra,
});

/** Every condition type, each with every field it may have, and with only some of them. */
const CONDITIONS: Array<[string, AlertCondition]> = [
  ['wind: speed range and directions', { type: 'wind', min: 8, max: 15.5, directions: ['W', 'NW'] }],
  ['wind: only a minimum', { type: 'wind', min: 0 }],
  ['wind: only directions', { type: 'wind', directions: [...DIRECTIONS] }],
  ['temperature: range', { type: 'temperature', min: 273.15, max: 300.4 }],
  ['temperature: only a maximum below zero', { type: 'temperature', max: 253.65 }],
  ['temperature: only a minimum with thousandths', { type: 'temperature', min: 288.123 }],
  ['rainfall: minimum', { type: 'rainfall', min: 5, hours: 24 }],
  ['rainfall: range', { type: 'rainfall', min: 0.5, max: 20, hours: 72 }],
  ['rainfall: only a maximum', { type: 'rainfall', max: 1, hours: 1 }],
  ['cloudiness: one class', { type: 'cloudiness', classes: ['OVC'] }],
  ['cloudiness: every class', { type: 'cloudiness', classes: [...CLOUD_CLASSES] }],
  ['fresh snow', { type: 'freshSnow', min: 10, hours: 12 }],
  ['swell: range and directions', { type: 'swell', min: 1.5, max: 3, directions: ['S', 'SW'] }],
  ['swell: only directions', { type: 'swell', directions: ['N'] }],
  ['time: weekend mornings', { type: 'time', weekdays: ['sat', 'sun'], fromHour: 6, toHour: 12 }],
  ['time: past midnight, every day', { type: 'time', weekdays: [...WEEKDAYS], fromHour: 22, toHour: 4 }],
];

describe('alert form draft', () => {
  it('covers every condition type in the table and in the form', () => {
    expect(new Set(CONDITIONS.map(([, c]) => c.type))).toEqual(new Set(ALERT_CONDITION_TYPES));
    expect([...FORM_ORDER].sort()).toEqual([...ALERT_CONDITION_TYPES].sort());
  });

  it.each(CONDITIONS)('round-trips %s (alert -> draft -> alert)', (_, condition) => {
    const alert = base([condition]);
    expect(validateAlert(alert, () => {})).not.toBeNull();
    const draft = draftOf(alert);
    expect(draft.on[condition.type]).toBe(true);
    expect(draftProblems(draft)).toEqual([]);
    expect(alertOf(draft, alert)).toEqual(alert);
  });

  it('round-trips an alert with one of each condition, in its own order, keeping place, product, state and offset', () => {
    const conditions = [...CONDITIONS].reverse().filter(([, c], i, all) => all.findIndex(([, o]) => o.type === c.type) === i).map(([, c]) => c);
    expect(conditions).toHaveLength(ALERT_CONDITION_TYPES.length);
    const alert = base(conditions, { id: 'a1', state: 'triggered', utcOffsetMin: -300, updated: 1234, name: 'All of them' });
    expect(validateAlert(alert, () => {})).not.toBeNull();
    const back = alertOf(draftOf(alert), alert);
    expect(back).toEqual(alert);
    expect(back.conditions.map((c) => c.type)).toEqual(conditions.map((c) => c.type));
  });

  it('shows temperatures in °C and stores them in K', () => {
    const draft = draftOf(base([{ type: 'temperature', min: 263.15, max: 298.15 }]));
    expect([draft.tempMin, draft.tempMax]).toEqual(['-10', '25']);
    expect(conditionsOf({ ...draft, tempMin: '-2.5', tempMax: '' })).toEqual([{ type: 'temperature', min: 270.65 }]);
  });

  it('keeps the fields of a condition switched off, and leaves it out of the alert', () => {
    const alert = base([{ type: 'wind', min: 12 }, { type: 'rainfall', min: 3, hours: 6 }]);
    const draft = draftOf(alert);
    draft.on.rainfall = false;
    expect(alertOf(draft, alert).conditions).toEqual([{ type: 'wind', min: 12 }]);
    draft.on.rainfall = true;
    expect(alertOf(draft, alert)).toEqual(alert);
    // Conditions the alert does not have start from the new-alert values.
    expect(draft.on.time).toBe(false);
    expect(draft.days).toEqual([...WEEKDAYS]);
  });

  it('changes what was edited and nothing else', () => {
    const alert = base([{ type: 'wind', min: 8, directions: ['W'] }, { type: 'time', weekdays: ['mon', 'tue'], fromHour: 8, toHour: 20 }]);
    const draft = draftOf(alert);
    const edited = alertOf({ ...draft, name: '  Kite spot  ', windMin: '11', days: toggled(WEEKDAYS, draft.days, 'sat') }, alert);
    expect(edited).toEqual({
      ...alert, name: 'Kite spot',
      conditions: [{ type: 'wind', min: 11, directions: ['W'] }, { type: 'time', weekdays: ['mon', 'tue', 'sat'], fromHour: 8, toHour: 20 }],
    });
  });

  it('a new alert: wind on, valid as it comes', () => {
    const draft = emptyDraft('Here');
    expect(conditionsOf(draft)).toEqual([{ type: 'wind', min: 10 }]);
    expect(draftProblems(draft)).toEqual([]);
    expect(validateAlert(alertOf(draft, base([])), () => {})).not.toBeNull();
  });

  it.each([
    ['an empty name', { name: '   ' }, ['name']],
    ['no condition on', { on: { ...emptyDraft('').on, wind: false } }, ['none']],
    ['wind with nothing set', { windMin: '' }, ['wind']],
    ['wind min above max', { windMin: '12', windMax: '10' }, ['wind']],
    ['wind speed not a number', { windMin: 'abc' }, ['wind']],
  ] as const)('finds %s', (_, patch, problems) => {
    expect(draftProblems({ ...emptyDraft('Here'), ...patch })).toEqual(problems);
  });

  it.each([
    ['temperature with neither bound', 'temperature', { tempMin: '', tempMax: '' }],
    ['rainfall over more than 72 hours', 'rainfall', { rainHours: '73' }],
    ['rainfall without hours', 'rainfall', { rainHours: '' }],
    ['rainfall hours not whole', 'rainfall', { rainHours: '1.5' }],
    ['no cloud class', 'cloudiness', { clouds: [] }],
    ['fresh snow without an amount', 'freshSnow', { snowMin: '' }],
    ['swell with nothing set', 'swell', { swellMin: '' }],
    ['no weekday', 'time', { days: [] }],
    ['an empty hour range', 'time', { fromHour: '8', toHour: '8' }],
    ['an hour past 24', 'time', { toHour: '25' }],
  ] as Array<[string, AlertConditionType, Partial<Draft>]>)('finds %s', (_, type, patch) => {
    const draft: Draft = { ...emptyDraft('Here'), ...patch };
    draft.on = { ...draft.on, wind: false, [type]: true };
    expect(draftProblems(draft)).toEqual([type]);
  });

  it('keeps chips in their natural order', () => {
    expect(toggled(DIRECTIONS, ['W'], 'N')).toEqual(['N', 'W']);
    expect(toggled(WEEKDAYS, ['mon', 'sun'], 'sun')).toEqual(['mon']);
    expect(toggled(CLOUD_CLASSES, [], 'OVC')).toEqual(['OVC']);
  });
});
