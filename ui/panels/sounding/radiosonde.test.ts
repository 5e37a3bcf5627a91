import { afterEach, describe, expect, it, vi } from 'vitest';
import { OBS_STATUS_PATH, type ObsStatusAnswer } from '../../../common/api/obs.ts';
import { fetchRadiosonde, RADIOSONDE_STATIONS_PATH, radiosondePath, RadiosondeError, type RadiosondeProblem } from './radiosonde.ts';

const SOUNDING = {
  source: 'radiosonde', id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, elevation: 357, time: Date.UTC(2018, 11, 22, 12),
  levels: [{ pressure: 970, height: 357, temp: 8.2, dewpoint: 1.2, windDir: 180, windSpeed: 5 }],
};

const UWYO = { id: 'uwyo', kind: 'soundings', label: 'University of Wyoming', attribution: 'University of Wyoming', intervalMinutes: 60 } as const;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notFound = () => json({ error: 'Not Found', message: 'No such observation file', statusCode: 404 }, 404);

/** A server whose answers are `routes` by path; any other path is a 404. */
function serve(routes: Record<string, () => Response>): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (path: string) => {
    asked.push(path);
    return (routes[path] ?? notFound)();
  }));
  return asked;
}

async function problemOf(id: string): Promise<{ problem: RadiosondeProblem; source?: { label: string; minutes: number } }> {
  const error = await fetchRadiosonde(id).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RadiosondeError);
  const { problem, source } = error as RadiosondeError;
  return source ? { problem, source } : { problem };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a radiosonde station\'s sounding (SPEC §2 /radiosonde/{id})', () => {
  it('answers the published sounding, checked against its shape', async () => {
    serve({ [radiosondePath('72357')]: () => json(SOUNDING) });
    expect(await fetchRadiosonde('72357')).toEqual(SOUNDING);
  });

  it('an id that is no station id is refused without asking the server', async () => {
    const asked = serve({});
    expect(await problemOf('no/such')).toEqual({ problem: 'badId' });
    expect(asked).toEqual([]);
  });

  it('a station missing from a published list is unknown', async () => {
    serve({ [RADIOSONDE_STATIONS_PATH]: () => json({ stations: [] }) });
    expect(await problemOf('99999')).toEqual({ problem: 'unknownStation' });
  });

  it('without a list, the observation status tells a server without the source from one still waiting for it', async () => {
    const status = (sources: ObsStatusAnswer['sources']) => serve({ [OBS_STATUS_PATH]: () => json({ sources }) });
    status([]);
    expect(await problemOf('72357')).toEqual({ problem: 'unavailable' });
    // Followed, its polls worked, nothing published yet (a fresh start).
    status([{ ...UWYO, lastSuccess: null, ok: true }]);
    expect(await problemOf('72357')).toEqual({ problem: 'pending', source: { label: 'University of Wyoming', minutes: 60 } });
    // Followed, and its last poll failed (no internet, the upstream down).
    status([{ ...UWYO, lastSuccess: null, ok: false }]);
    expect(await problemOf('72357')).toEqual({ problem: 'unreachable', source: { label: 'University of Wyoming', minutes: 60 } });
    // Polled without a sounding to publish (every station's launch missing upstream): still pending.
    status([{ ...UWYO, lastSuccess: '2026-11-29T12:00:00.000Z', ok: true }]);
    expect(await problemOf('72357')).toEqual({ problem: 'pending', source: { label: 'University of Wyoming', minutes: 60 } });
    // Other families' sources are not radiosondes.
    status([{ ...UWYO, id: 'dwd', kind: 'radar', label: 'DWD', lastSuccess: null, ok: false }]);
    expect(await problemOf('72357')).toEqual({ problem: 'unavailable' });
  });

  it('a status that cannot be read counts as no source; a server error or a malformed sounding is a failure', async () => {
    serve({ [OBS_STATUS_PATH]: () => new Response('<html>', { status: 502 }) });
    expect(await problemOf('72357')).toEqual({ problem: 'unavailable' });
    serve({ [radiosondePath('72357')]: () => new Response('busy', { status: 503 }) });
    expect(await problemOf('72357')).toEqual({ problem: 'failed' });
    serve({ [radiosondePath('72357')]: () => json({ ...SOUNDING, levels: 'none' }) });
    expect(await problemOf('72357')).toEqual({ problem: 'failed' });
  });

  it('an aborted load stays an abort, not a problem to show', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    }));
    await expect(fetchRadiosonde('72357')).rejects.toMatchObject({ name: 'AbortError' });
  });
});
