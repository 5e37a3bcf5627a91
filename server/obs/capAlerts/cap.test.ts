import { describe, expect, it } from 'vitest';
import { alertsAt, textForLanguage } from '../../../common/capAlerts.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { CapFormatError, infoSegments, parseCap, parseCircle, parsePolygon, parseReferences } from './cap.ts';
import { readWarningFixture } from './testing.ts';

describeWithFixtures('CAP 1.2 reader on ECCC alerts', () => {
  it('reads the Nova Scotia frost advisory: header, both languages, 21 areas (42 polygons in its two languages)', async () => {
    const message = parseCap(await readWarningFixture('ecccFrost'), 'eccc');
    expect(message.id).toBe('cap-pac@canada.ca,urn:oid:2.49.0.1.124.1032737847.2022');
    expect(message.msgType).toBe('Update');
    expect(message.status).toBe('Actual');
    expect(message.scope).toBe('Public');
    expect(message.sent).toBe(Date.UTC(2022, 9, 10, 18, 15, 20));
    expect(message.references[0]).toEqual({ sender: 'cap-pac@canada.ca', identifier: 'urn:oid:2.49.0.1.124.1601135595.2022' });
    expect(message.segments).toHaveLength(1);
    const { alert, expiresMissing } = message.segments[0];
    expect(expiresMissing).toBe(false);
    expect(alert).toMatchObject({ severity: 'Moderate', urgency: 'Future', certainty: 'Possible', provider: 'eccc' });
    expect(alert.effective).toBe(Date.UTC(2022, 9, 10, 18, 14, 20));
    expect(alert.onset).toBe(alert.effective); // no <onset>: effective
    expect(alert.expires).toBe(Date.UTC(2022, 9, 11, 10, 14, 20));
    expect(alert.texts.map((t) => [t.language, t.headline])).toEqual([
      ['en-CA', 'frost advisory in effect'],
      ['fr-CA', 'avis de gel en vigueur'],
    ]);
    expect(alert.texts[0].description).toMatch(/^Frost may damage some crops/);
    expect(alert.texts[0].senderName).toBe('Environment Canada');
    expect(alert.areas).toHaveLength(21);
    expect(alert.areas.reduce((n, a) => n + a.polygons.length, 0)).toBe(21);
    expect(alert.areas[0].areaDesc).toBe('Kings County');
    expect(alert.areas[0].polygons[0].slice(0, 2)).toEqual([-64.5186, 45.3454]); // [lon, lat] from "45.3454,-64.5186"
    expect(alert.areas[0].geocodes).toContainEqual({ valueName: 'profile:CAP-CP:Location:0.3', value: '1207' });
    // Kentville (45.077 N, 64.496 W) is in Kings County; Halifax harbour's open sea south of Sable Island is not.
    expect(alertsAt([alert], 45.077, -64.496).map((a) => a.id)).toEqual([alert.id]);
    expect(alertsAt([alert], 43.0, -60.0)).toEqual([]);
    expect(textForLanguage(alert.texts, 'fr')?.headline).toBe('avis de gel en vigueur');
    expect(textForLanguage(alert.texts, 'de')?.headline).toBe('frost advisory in effect');
  });

  it('splits the air-quality statement into its in-effect and ended segments', async () => {
    const message = parseCap(await readWarningFixture('ecccAirQuality'), 'eccc');
    expect(message.segments.map(({ alert }) => [alert.id.split('#')[1], alert.severity, alert.urgency, alert.texts.map((t) => t.language).join('/'), alert.areas.length]))
      .toEqual([['0', 'Moderate', 'Future', 'en-CA/fr-CA', 2], ['1', 'Minor', 'Past', 'en-CA/fr-CA', 2]]);
    expect(message.segments[0].alert.areas.map((a) => a.areaDesc)).toEqual(['Kootenay Lake', 'East Kootenay - south including Cranbrook']);
    expect(message.segments[1].alert.expires).toBe(Date.UTC(2022, 9, 10, 18, 43, 34));
    expect(message.segments[1].alert.texts[0].headline).toBe('special air quality statement ended');
  });
});

const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';
/** A CAP 1.2 message written from the standard's §3.2 (no fixture has circles or a Cancel). */
function capXml(parts: { msgType?: string; references?: string; info?: string; identifier?: string; sent?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="${CAP_NS}">
  <identifier>${parts.identifier ?? 'TEST-1'}</identifier><sender>test@example.org</sender>
  <sent>${parts.sent ?? '2024-03-01T10:00:00+01:00'}</sent><status>Actual</status><msgType>${parts.msgType ?? 'Alert'}</msgType><scope>Public</scope>
  ${parts.references ? `<references>${parts.references}</references>` : ''}
  ${parts.info ?? `<info><category>Met</category><event>wind</event><urgency>Expected</urgency><severity>Severe</severity><certainty>Very Likely</certainty>
    <expires>2024-03-02T10:00:00+01:00</expires>
    <area><areaDesc>Circle</areaDesc><circle>48.85,2.35 10</circle></area></info>`}
</alert>`;
}

describe('CAP 1.2 reader on messages written from the standard', () => {
  it('reads a circle, CAP 1.0 "Very Likely" as Likely, and en-US as the default language', () => {
    const { segments } = parseCap(capXml(), 'meteoalarm');
    const { alert } = segments[0];
    expect(alert.areas[0].circles).toEqual([{ lat: 48.85, lon: 2.35, radiusKm: 10 }]);
    expect(alert.certainty).toBe('Likely');
    expect(alert.texts[0].language).toBe('en-US');
    expect(alert.sent).toBe(Date.UTC(2024, 2, 1, 9));
    // 5 km from the centre is inside, 15 km is not (1 degree of latitude = 111.2 km).
    expect(alertsAt([alert], 48.85 + 5 / 111.2, 2.35)).toHaveLength(1);
    expect(alertsAt([alert], 48.85 + 15 / 111.2, 2.35)).toHaveLength(0);
  });

  it('refuses what CAP forbids, naming the element', () => {
    const refused: [string, string, RegExp][] = [
      ['not XML', '<alert><identifier>x</alert>', /not well-formed XML/],
      ['no alert', `<feed xmlns="${CAP_NS}"/>`, /no <alert> element/],
      ['no sent', capXml().replace(/<sent>.*<\/sent>/, ''), /lacks <sent>/],
      ['zone-less time', capXml({ sent: '2024-03-01T10:00:00' }), /<sent> "2024-03-01T10:00:00" is not a CAP dateTime/],
      ['unknown msgType', capXml({ msgType: 'Retract' }), /<msgType> "Retract" is not one of Alert, Update, Cancel/],
      ['Update without references', capXml({ msgType: 'Update' }), /Update without <references>/],
      ['no info', capXml({ info: '' }), /has no <info>/],
      ['bad severity', capXml().replace('Severe', 'Awful'), /<severity> "Awful"/],
    ];
    for (const [what, xml, message] of refused) {
      expect(() => parseCap(xml, 'test'), what).toThrow(CapFormatError);
      expect(() => parseCap(xml, 'test'), what).toThrow(message);
    }
  });

  it('reads and refuses polygons, circles and references by CAP §3.2.4 and §3.2.1', () => {
    expect(parsePolygon('1,2 1,3 2,3 1,2')).toEqual([2, 1, 3, 1, 3, 2, 2, 1]);
    expect(() => parsePolygon('1,2 1,3 1,2')).toThrow(/3 points/);
    expect(() => parsePolygon('1,2 1,3 2,3 2,2')).toThrow(/not closed/);
    expect(() => parsePolygon('1,2 1,3 91,3 1,2')).toThrow(/"91,3" is not "latitude,longitude"/);
    expect(() => parseCircle('48,2')).toThrow(CapFormatError);
    expect(() => parseCircle('48,2 -1')).toThrow(CapFormatError);
    expect(parseReferences('a@b,ID-1,2024-01-01T00:00:00-00:00 a@b,ID-2,2024-01-01T00:00:00-00:00')).toEqual([
      { sender: 'a@b', identifier: 'ID-1' }, { sender: 'a@b', identifier: 'ID-2' },
    ]);
    expect(() => parseReferences('a@b,ID-1')).toThrow(/not "sender,identifier,sent"/);
  });

  it('groups info blocks into segments when a language comes again', () => {
    expect(infoSegments(['en', 'fr', 'en', 'fr'], (l) => l)).toEqual([['en', 'fr'], ['en', 'fr']]);
    expect(infoSegments(['en', 'en'], (l) => l)).toEqual([['en'], ['en']]);
    expect(infoSegments(['de', 'en', 'fr'], (l) => l)).toEqual([['de', 'en', 'fr']]);
  });
});
