import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../live/testing.ts';
import { CapFormatError } from './cap.ts';
import { geoJsonRings, parseNwsAlerts, readZoneGeometry, zonePath, type NwsArea } from './nws.ts';
import { readWarningFixture } from './testing.ts';

describeWithFixtures('NWS API alerts reader', () => {
  it('reads the zone-only Flood Watch of /alerts/active/zone/ORZ004', async () => {
    const { messages, errors } = parseNwsAlerts(JSON.parse(await readWarningFixture('nwsZone')));
    expect(errors).toEqual([]);
    expect(messages).toHaveLength(1);
    const message = messages[0];
    expect(message).toMatchObject({ id: 'w-nws.webmaster@noaa.gov,NWS-IDP-PROD-3965873-3369046', msgType: 'Update', status: 'Actual' });
    expect(message.references).toHaveLength(4);
    const { alert, expiresMissing } = message.segments[0];
    expect(expiresMissing).toBe(false);
    expect(alert).toMatchObject({ severity: 'Severe', urgency: 'Future', certainty: 'Possible', provider: 'nws' });
    expect(alert.onset).toBe(Date.parse('2019-12-20T13:34:00-08:00'));
    expect(alert.expires).toBe(Date.parse('2019-12-21T05:30:00-08:00'));
    expect(alert.texts[0]).toMatchObject({ language: 'en-US', event: 'Flood Watch', senderName: 'NWS Portland OR' });
    expect(alert.texts[0].headline).toMatch(/^Flood Watch issued December 20/);
    expect(alert.texts[0].instruction).toMatch(/^A Flood Watch means/);
    // geometry null: one area per affected zone, outlines still to fetch
    const areas = alert.areas as NwsArea[];
    expect(areas).toHaveLength(11);
    expect(areas.every((a) => a.polygons.length === 0)).toBe(true);
    expect(areas[5]).toMatchObject({ areaDesc: 'Central Coast Range of Western Oregon', nwsZone: 'forecast/ORZ004', geocodes: [{ valueName: 'UGC', value: 'ORZ004' }] });
  });
});

describe('NWS zones and geometry', () => {
  it('reads zone paths from affectedZones URLs', () => {
    expect(zonePath('https://api.weather.gov/zones/forecast/ORZ004')).toBe('forecast/ORZ004');
    expect(zonePath('https://api.weather.gov/zones/county/WAC011')).toBe('county/WAC011');
    expect(zonePath('https://api.weather.gov/zones/forecast/../x')).toBeNull();
  });

  it('reads a /zones/{type}/{id} answer', () => {
    // Built for this test from the API's documented shape of /zones/forecast/{id} (a GeoJSON
    // Feature, https://www.weather.gov/documentation/services-web-api#/default/zone): NOT a
    // recorded answer; its square is not the zone's real outline.
    const zone = {
      '@context': ['https://geojson.org/geojson-ld/geojson-context.jsonld'],
      id: 'https://api.weather.gov/zones/forecast/ORZ004',
      type: 'Feature',
      geometry: { type: 'MultiPolygon', coordinates: [[[[-124, 44.5], [-123, 44.5], [-123, 45.5], [-124, 45.5], [-124, 44.5]]]] },
      properties: { id: 'ORZ004', type: 'public', name: 'Central Coast Range of Western Oregon', state: 'OR' },
    };
    expect(readZoneGeometry(zone, 'forecast/ORZ004')).toEqual([[-124, 44.5, -123, 44.5, -123, 45.5, -124, 45.5, -124, 44.5]]);
    expect(() => readZoneGeometry({ ...zone, geometry: null }, 'forecast/ORZ004')).toThrow(/no geometry/);
    expect(() => readZoneGeometry({ type: 'FeatureCollection' }, 'forecast/ORZ004')).toThrow(/not a GeoJSON Feature/);
  });

  it('refuses open rings, short rings and other geometry types', () => {
    expect(() => geoJsonRings({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, 'x')).toThrow(/not closed/);
    expect(() => geoJsonRings({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }, 'x')).toThrow(/fewer than four/);
    expect(() => geoJsonRings({ type: 'Point', coordinates: [0, 0] }, 'x')).toThrow(CapFormatError);
    expect(() => geoJsonRings({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 95], [0, 0]]] }, 'x')).toThrow(/not \[longitude, latitude\]/);
  });

  it('drops a malformed feature by name and keeps the others', () => {
    const good = {
      type: 'Feature', id: 'A', geometry: { type: 'Polygon', coordinates: [[[-100, 40], [-99, 40], [-99, 41], [-100, 40]]] },
      properties: { id: 'A', sender: 's', sent: '2024-01-01T00:00:00-06:00', expires: '2024-01-01T06:00:00-06:00', messageType: 'Alert', status: 'Actual', severity: 'Minor', urgency: 'Expected', certainty: 'Likely', event: 'Wind Advisory' },
    };
    const bad = { ...good, id: 'B', properties: { ...good.properties, id: 'B', severity: 'Dire' } };
    const { messages, errors } = parseNwsAlerts({ type: 'FeatureCollection', features: [good, bad] });
    expect(messages.map((m) => m.id)).toEqual(['s,A']);
    expect(messages[0].segments[0].alert.areas[0].polygons).toHaveLength(1);
    expect(errors).toEqual([{ id: 'B', reason: 'NWS alert severity "Dire" is not one of Extreme, Severe, Moderate, Minor, Unknown' }]);
    expect(() => parseNwsAlerts({ type: 'Feature' })).toThrow(/not a GeoJSON FeatureCollection/);
  });
});
