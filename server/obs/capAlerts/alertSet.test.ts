import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../live/testing.ts';
import { activeAlerts } from './alertSet.ts';
import { parseCap, type CapMessage } from './cap.ts';
import { ECCC_FIXTURE_NOW, readWarningFixture } from './testing.ts';

const T0 = Date.UTC(2024, 2, 1, 12);
const HOUR = 3_600_000;

/** A message of one segment with a one-unit square around (lon, lat) 0,0; fields overridden per case. */
function message(id: string, over: Partial<CapMessage> & { expires?: number; expiresMissing?: boolean; noArea?: boolean } = {}): CapMessage {
  const sent = over.sent ?? T0;
  const msgType = over.msgType ?? 'Alert';
  const references = over.references ?? [];
  return {
    id: `s,${id}`, sent, msgType, references, status: over.status ?? 'Actual', scope: over.scope ?? 'Public',
    segments: [{
      expiresMissing: over.expiresMissing ?? false,
      alert: {
        id: `s,${id}`, identifier: id, sender: 's', provider: 'test', sent, msgType, references,
        severity: 'Moderate', urgency: 'Expected', certainty: 'Likely', onset: sent, effective: sent, expires: over.expires ?? T0 + 6 * HOUR,
        texts: [],
        areas: [{ areaDesc: 'square', polygons: over.noArea ? [] : [[-1, -1, 1, -1, 1, 1, -1, 1, -1, -1]], circles: [], geocodes: [] }],
      },
    }],
  };
}

describe('activeAlerts', () => {
  it('applies Updates and Cancels in the order sent and drops with a reason', () => {
    const { alerts, dropped } = activeAlerts([
      message('U', { sent: T0 + HOUR, msgType: 'Update', references: [{ sender: 's', identifier: 'A' }] }),
      message('A'),
      message('B'),
      message('C', { sent: T0 + 2 * HOUR, msgType: 'Cancel', references: [{ sender: 's', identifier: 'B' }] }),
      message('X', { status: 'Exercise' }),
      message('P', { scope: 'Restricted' }),
      message('E', { expires: T0 + HOUR }),
      message('N', { expiresMissing: true }),
      message('G', { noArea: true }),
    ], T0 + 3 * HOUR);
    expect(alerts.map((a) => a.id)).toEqual(['s,U']);
    expect(Object.fromEntries(dropped.map((d) => [d.id, d.reason]))).toEqual({
      's,A': 'updated by s,U',
      's,B': 'cancelled by s,C',
      's,C': 'a Cancel message',
      's,X': 'status Exercise: not an actual alert',
      's,P': 'scope Restricted: not public',
      's,E': 'expired at 2024-03-01T13:00:00.000Z',
      's,N': 'no <expires>: its end is unknown',
      's,G': 'no area with a polygon or circle',
    });
  });

  it('does not show an alert that a message sent later already replaced', () => {
    const { alerts } = activeAlerts([
      message('U', { sent: T0 + HOUR, msgType: 'Update', references: [{ sender: 's', identifier: 'A' }] }),
      message('A', { sent: T0 + 2 * HOUR }),
    ], T0 + 2 * HOUR);
    expect(alerts.map((a) => a.id)).toEqual(['s,U']);
  });
});

describeWithFixtures('activeAlerts on the ECCC fixtures', () => {
  it('keeps the frost advisory and both air-quality segments at 18:30Z; at 19Z the ended segment has expired', async () => {
    const messages = [parseCap(await readWarningFixture('ecccFrost'), 'eccc'), parseCap(await readWarningFixture('ecccAirQuality'), 'eccc')];
    const at1830 = activeAlerts(messages, Date.UTC(2022, 9, 10, 18, 30));
    expect(at1830.alerts.map((a) => [a.id.split(',')[1], a.texts[0].headline])).toEqual([
      ['urn:oid:2.49.0.1.124.2051382770.2022#0', 'special air quality statement in effect'],
      ['urn:oid:2.49.0.1.124.2051382770.2022#1', 'special air quality statement ended'],
      ['urn:oid:2.49.0.1.124.1032737847.2022', 'frost advisory in effect'],
    ]);
    const at19 = activeAlerts(messages, ECCC_FIXTURE_NOW);
    expect(at19.alerts).toHaveLength(2);
    expect(at19.dropped).toContainEqual({ id: 'cap-pac@canada.ca,urn:oid:2.49.0.1.124.2051382770.2022#1', reason: 'expired at 2022-10-10T18:43:34.000Z' });
  });
});
