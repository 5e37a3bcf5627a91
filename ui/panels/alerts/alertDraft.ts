/**
 * The alert form's draft (AlertForm.tsx) and its conversion to and from an alert (SPEC §3 "Alert";
 * common/alerts.ts). The form holds what the user types: text for every number, in the units the
 * form shows (m/s, °C, mm, cm, m), and a switch per condition type; the alert holds numbers in the
 * base units of common/alerts.ts (m/s, K, mm, cm, m). A condition switched off keeps its fields, so
 * switching it on again brings them back.
 *
 *   draftOf(alert)        the draft of a stored alert: every condition, its directions, weekdays,
 *                         cloud classes and hours, in the alert's order of conditions
 *   alertOf(draft, base)  the base alert (place, product, state, time offset kept) with the draft's
 *                         name and conditions; alertOf(draftOf(a), a) equals a
 *   draftProblems(draft)  what to fix before saving: 'name', 'none' (no condition on) or the
 *                         condition types whose values common/alerts.ts refuses
 */

import {
  ALERT_NAME_MAX_LENGTH, conditionProblem, WEEKDAYS, type Alert, type AlertCondition, type AlertConditionType, type CloudClass,
  type Direction, type Weekday,
} from '../../../common/alerts.ts';

/** 0 °C in kelvin. */
export const KELVIN = 273.15;

/** The form's order: the most asked-for first. */
export const FORM_ORDER: readonly AlertConditionType[] = ['wind', 'temperature', 'rainfall', 'cloudiness', 'freshSnow', 'swell', 'time'];

export interface Draft {
  name: string;
  on: Record<AlertConditionType, boolean>;
  /** The order of the conditions in the alert (FORM_ORDER for a new one). */
  order: AlertConditionType[];
  windMin: string; windMax: string; windDirs: Direction[];
  tempMin: string; tempMax: string;
  rainMin: string; rainMax: string; rainHours: string;
  clouds: CloudClass[];
  snowMin: string; snowHours: string;
  swellMin: string; swellMax: string; swellDirs: Direction[];
  days: Weekday[]; fromHour: string; toHour: string;
}

/** The text fields of a draft (the number inputs of the form). */
export type DraftField = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];

/** A new alert's draft: wind on, every other condition off with a useful value to start from. */
export const emptyDraft = (name: string): Draft => ({
  name,
  on: { wind: true, temperature: false, rainfall: false, cloudiness: false, freshSnow: false, swell: false, time: false },
  order: [...FORM_ORDER],
  windMin: '10', windMax: '', windDirs: [],
  tempMin: '', tempMax: '',
  rainMin: '5', rainMax: '', rainHours: '24',
  clouds: ['SKC', 'FEW'],
  snowMin: '10', snowHours: '24',
  swellMin: '1.5', swellMax: '', swellDirs: [],
  days: [...WEEKDAYS], fromHour: '8', toHour: '20',
});

/** Kelvin and °C rounded to a thousandth, so that a value goes back to what it was. */
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const text = (x: number | undefined): string => (x === undefined ? '' : String(x));
const celsiusText = (k: number | undefined): string => (k === undefined ? '' : String(round3(k - KELVIN)));

/** An optional number: empty text is none; text that is not a number stays NaN for the check to refuse. */
const optional = (t: string): number | undefined => (t.trim() === '' ? undefined : Number(t));
/** A required number: empty text is NaN (refused), not 0. */
const required = (t: string): number => (t.trim() === '' ? Number.NaN : Number(t));
const kelvin = (t: string): number | undefined => {
  const c = optional(t);
  return c === undefined ? undefined : round3(c + KELVIN);
};
const orNone = <T>(list: readonly T[]): T[] | undefined => (list.length ? [...list] : undefined);
/** The object without its undefined fields (an alert never stores them). */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The draft of a stored alert. */
export function draftOf(alert: Alert): Draft {
  const d = emptyDraft(alert.name);
  d.on = { wind: false, temperature: false, rainfall: false, cloudiness: false, freshSnow: false, swell: false, time: false };
  const types = alert.conditions.map((c) => c.type);
  d.order = [...types, ...FORM_ORDER.filter((type) => !types.includes(type))];
  for (const c of alert.conditions) {
    d.on[c.type] = true;
    switch (c.type) {
      case 'wind':
        Object.assign(d, { windMin: text(c.min), windMax: text(c.max), windDirs: [...(c.directions ?? [])] });
        break;
      case 'temperature':
        Object.assign(d, { tempMin: celsiusText(c.min), tempMax: celsiusText(c.max) });
        break;
      case 'rainfall':
        Object.assign(d, { rainMin: text(c.min), rainMax: text(c.max), rainHours: text(c.hours) });
        break;
      case 'cloudiness':
        d.clouds = [...c.classes];
        break;
      case 'freshSnow':
        Object.assign(d, { snowMin: text(c.min), snowHours: text(c.hours) });
        break;
      case 'swell':
        Object.assign(d, { swellMin: text(c.min), swellMax: text(c.max), swellDirs: [...(c.directions ?? [])] });
        break;
      case 'time':
        Object.assign(d, { days: [...c.weekdays], fromHour: text(c.fromHour), toHour: text(c.toHour) });
        break;
    }
  }
  return d;
}

/** One condition of the draft, in base units (not yet checked). */
function conditionOf(d: Draft, type: AlertConditionType): AlertCondition {
  switch (type) {
    case 'wind': return defined({ type, min: optional(d.windMin), max: optional(d.windMax), directions: orNone(d.windDirs) });
    case 'temperature': return defined({ type, min: kelvin(d.tempMin), max: kelvin(d.tempMax) });
    case 'rainfall': return defined({ type, min: optional(d.rainMin), max: optional(d.rainMax), hours: required(d.rainHours) });
    case 'cloudiness': return { type, classes: [...d.clouds] };
    case 'freshSnow': return { type, min: required(d.snowMin), hours: required(d.snowHours) };
    case 'swell': return defined({ type, min: optional(d.swellMin), max: optional(d.swellMax), directions: orNone(d.swellDirs) });
    case 'time': return { type, weekdays: [...d.days], fromHour: required(d.fromHour), toHour: required(d.toHour) };
  }
}

/** The conditions switched on, in the draft's order. */
export function conditionsOf(d: Draft): AlertCondition[] {
  return d.order.filter((type) => d.on[type]).map((type) => conditionOf(d, type));
}

/** The base alert with the draft's name and conditions; everything else of the base is kept. */
export function alertOf(d: Draft, base: Alert): Alert {
  return { ...base, name: d.name.trim(), conditions: conditionsOf(d) };
}

export type DraftProblem = 'name' | 'none' | AlertConditionType;

/** What stops the draft from being saved; empty when it can be. */
export function draftProblems(d: Draft): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (d.name.trim() === '' || d.name.length > ALERT_NAME_MAX_LENGTH) out.push('name');
  const on = d.order.filter((type) => d.on[type]);
  if (on.length === 0) out.push('none');
  for (const type of on) if (conditionProblem(conditionOf(d, type)) !== null) out.push(type);
  return out;
}

/** A chip list's new choice, in the order of all the choices (N before NE, mon before tue). */
export function toggled<T>(all: readonly T[], chosen: readonly T[], item: T): T[] {
  const next = chosen.includes(item) ? chosen.filter((x) => x !== item) : [...chosen, item];
  return all.filter((x) => next.includes(x));
}
