import { describe, expect, it } from 'vitest';
import { pointPath } from '../../common/routes.ts';
import { isPushPageMessage } from '../account/push.ts';
import { pushNotice } from './pushMessage.ts';

describe('pushNotice: a pushed payload as a notification', () => {
  it('an alert opens the forecast at its place, with the badge number', () => {
    const payload = JSON.stringify({ id: 'n_1', type: 'alert', title: 'Kite spot', body: 'Wind from Sat 10:00', newCount: 3, lat: 50.0755, lon: 14.4378, alertId: 'a1' });
    expect(pushNotice(payload)).toEqual({ title: 'Kite spot', body: 'Wind from Sat 10:00', tag: 'n_1', url: pointPath(50.0755, 14.4378), newCount: 3, id: 'n_1' });
  });

  it('the place path is the point-forecast route of common/routes.ts', () => {
    for (const [lat, lon] of [[0, 0], [-33.8688, 151.2093], [89.9999, -179.9999], [12.3456, -0.0004]]) {
      expect(pushNotice(JSON.stringify({ type: 'alert', lat, lon })).url).toBe(pointPath(lat, lon));
    }
  });

  it('a test notification opens the alerts window', () => {
    expect(pushNotice(JSON.stringify({ id: 'x', type: 'test', title: 'Isobar', body: 'This is a test notification', newCount: 0 })))
      .toMatchObject({ url: '/alerts', newCount: 0, title: 'Isobar' });
  });

  it('bad or hostile payloads still give a plain notification, never a throw', () => {
    expect(pushNotice(undefined)).toEqual({ title: 'Isobar', body: '', tag: 'isobar', url: '/alerts', newCount: null, id: null });
    expect(pushNotice('not json at all')).toMatchObject({ title: 'Isobar', body: 'not json at all' });
    expect(pushNotice('[1,2]')).toMatchObject({ title: 'Isobar', body: '' });
    expect(pushNotice('null')).toMatchObject({ title: 'Isobar' });
    const hostile = pushNotice(JSON.stringify({ id: '../../x', type: 'alert', title: 'x'.repeat(1000), body: 7, lat: 'nan', lon: 1e9, newCount: -4 }));
    expect(hostile).toMatchObject({ id: null, tag: 'isobar', url: '/alerts', newCount: null, body: '' });
    expect(hostile.title).toHaveLength(120);
  });
});

describe('isPushPageMessage', () => {
  it('accepts what the worker posts and nothing else', () => {
    expect(isPushPageMessage({ kind: 'isobar-push', id: 'n', newCount: 2 })).toBe(true);
    expect(isPushPageMessage({ kind: 'isobar-notification-click', id: null, url: '/alerts' })).toBe(true);
    expect(isPushPageMessage({ kind: 'isobar-notification-click', id: null })).toBe(false);
    expect(isPushPageMessage({ kind: 'other', id: null })).toBe(false);
    expect(isPushPageMessage('isobar-push')).toBe(false);
    expect(isPushPageMessage(null)).toBe(false);
  });
});
