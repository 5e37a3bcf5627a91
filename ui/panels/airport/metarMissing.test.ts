import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNWAYS_SOURCE_ID } from '../../../common/api/airports.ts';
import { OBS_STATUS_PATH, type ObsStatusAnswer } from '../../../common/api/obs.ts';
import { whyNoMetar } from './metarMissing.ts';

type Source = ObsStatusAnswer['sources'][number];
const AWC = { id: 'awc', kind: 'metars', label: 'Aviation Weather Center METAR and TAF', attribution: 'NOAA/NWS Aviation Weather Center', intervalMinutes: 10 } as const;
const RUNWAYS = { id: RUNWAYS_SOURCE_ID, kind: 'metars', label: 'OurAirports runways', attribution: 'OurAirports', intervalMinutes: 1440 } as const;
const AWC_SOURCE = { label: AWC.label, minutes: 10 };

function status(sources: Source[] | 'broken'): void {
  vi.stubGlobal('fetch', vi.fn(async (path: string) => {
    if (path !== OBS_STATUS_PATH) return new Response('', { status: 404 });
    if (sources === 'broken') return new Response('<html>', { status: 502 });
    return new Response(JSON.stringify({ sources }), { headers: { 'content-type': 'application/json' } });
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('why an airport has no current METAR (SPEC §2 /airport/{ICAO})', () => {
  it('where the METAR feed has published, the station sent none lately', async () => {
    // Published, even where the server follows no feed now: no need to ask.
    status([]);
    expect(await whyNoMetar(Date.UTC(2026, 10, 29, 12))).toEqual({ key: 'noMetar' });
    expect(fetch).not.toHaveBeenCalled();
    // Delivered since the airport was read.
    status([{ ...AWC, lastSuccess: '2026-11-29T12:00:00.000Z', ok: false }, { ...RUNWAYS, lastSuccess: null, ok: false }]);
    expect(await whyNoMetar(null)).toEqual({ key: 'noMetar', source: AWC_SOURCE });
  });

  it('where it has not: no feed followed, or the one followed has not delivered yet', async () => {
    status([]);
    expect(await whyNoMetar(null)).toEqual({ key: 'unavailable' });
    status([{ ...AWC, lastSuccess: null, ok: true }]);
    expect(await whyNoMetar(null)).toEqual({ key: 'pending', source: AWC_SOURCE });
    status([{ ...AWC, lastSuccess: null, ok: false }]);
    expect(await whyNoMetar(null)).toEqual({ key: 'unreachable', source: AWC_SOURCE });
  });

  it('the runway table is no METAR feed, delivered or not', async () => {
    status([{ ...RUNWAYS, lastSuccess: '2026-11-29T12:00:00.000Z', ok: true }, { ...AWC, lastSuccess: null, ok: false }]);
    expect(await whyNoMetar(null)).toEqual({ key: 'unreachable', source: AWC_SOURCE });
    status([{ ...RUNWAYS, lastSuccess: '2026-11-29T12:00:00.000Z', ok: true }]);
    expect(await whyNoMetar(null)).toEqual({ key: 'unavailable' });
  });

  it('a status that cannot be read leaves "no current METAR"; an abort stays an abort', async () => {
    status('broken');
    expect(await whyNoMetar(null)).toEqual({ key: 'noMetar' });
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    }));
    await expect(whyNoMetar(null)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
