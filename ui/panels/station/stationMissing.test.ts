import { afterEach, describe, expect, it, vi } from 'vitest';
import { OBS_STATUS_PATH, type ObsStatusAnswer } from '../../../common/api/obs.ts';
import { stationsListPath } from '../../../common/api/stations.ts';
import { whyStationMissing } from './stationMissing.ts';

const NWS = { id: 'nwsStations', kind: 'stations', label: 'NOAA National Weather Service', attribution: 'NOAA National Weather Service (public domain)', intervalMinutes: 10 } as const;
const LIST = stationsListPath({ lat: 0, lon: 0, limit: 1 });

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A server that has published stations as `updated` (null: never) and follows `sources`. */
function serve(updated: number | null, sources: ObsStatusAnswer['sources'] | 'broken'): void {
  vi.stubGlobal('fetch', vi.fn(async (path: string) => {
    if (path === LIST) return json({ updated, stations: [] });
    if (path === OBS_STATUS_PATH) return sources === 'broken' ? new Response('<html>', { status: 502 }) : json({ sources });
    return json({ error: 'Not Found', message: 'Unknown station', statusCode: 404 }, 404);
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('why a station is missing (SPEC §2 /station/{id}: an unknown id says so)', () => {
  it('where stations are published, the id is unknown', async () => {
    serve(Date.UTC(2026, 10, 29, 12), [{ ...NWS, lastSuccess: '2026-11-29T12:00:00.000Z', ok: true }]);
    expect(await whyStationMissing()).toEqual({ key: 'notFound' });
  });

  it('with none published: no source followed, or the one followed has not delivered', async () => {
    serve(null, []);
    expect(await whyStationMissing()).toEqual({ key: 'unavailable' });
    serve(null, [{ ...NWS, lastSuccess: null, ok: true }]);
    expect(await whyStationMissing()).toEqual({ key: 'pending', source: { label: 'NOAA National Weather Service', minutes: 10 } });
    serve(null, [{ ...NWS, lastSuccess: null, ok: false }]);
    expect(await whyStationMissing()).toEqual({ key: 'unreachable', source: { label: 'NOAA National Weather Service', minutes: 10 } });
    // A radar source is no station source.
    serve(null, [{ ...NWS, id: 'mrms', kind: 'radar', label: 'NOAA MRMS', lastSuccess: null, ok: false }]);
    expect(await whyStationMissing()).toEqual({ key: 'unavailable' });
  });

  it('what cannot be read leaves "not found"', async () => {
    serve(null, 'broken');
    expect(await whyStationMissing()).toEqual({ key: 'notFound' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('busy', { status: 503 })));
    expect(await whyStationMissing()).toEqual({ key: 'notFound' });
  });

  it('an abort stays an abort', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    }));
    await expect(whyStationMissing()).rejects.toMatchObject({ name: 'AbortError' });
  });
});
