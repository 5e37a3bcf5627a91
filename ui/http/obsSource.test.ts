import { afterEach, describe, expect, it, vi } from 'vitest';
import { OBS_STATUS_PATH, type ObsStatusAnswer } from '../../common/api/obs.ts';
import { fetchObsSourceState, nothingShown } from './obsSource.ts';

type Source = ObsStatusAnswer['sources'][number];
const source = (id: string, kind: Source['kind'], lastSuccess: string | null, ok: boolean): Source => ({
  id, kind, label: id.toUpperCase(), attribution: id, intervalMinutes: kind === 'storms' ? 30 : 1440, lastSuccess, ok,
});

function status(sources: Source[] | Response): void {
  vi.stubGlobal('fetch', vi.fn(async (path: string) => {
    if (path !== OBS_STATUS_PATH) return new Response('', { status: 404 });
    return sources instanceof Response ? sources : new Response(JSON.stringify({ sources }), { headers: { 'content-type': 'application/json' } });
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the state of an observation family\'s sources (GET /obs/v1.0/status.json)', () => {
  it('a source that delivered is serving; else all of them are pending while one\'s polls work, else unreachable', async () => {
    status([source('nhc', 'storms', null, false), source('ibtracs', 'storms', '2026-11-29T10:00:00.000Z', false), source('mrms', 'radar', null, true)]);
    expect(await fetchObsSourceState('storms')).toEqual({ state: 'serving', source: { label: 'IBTRACS', minutes: 30 } });
    status([source('nhc', 'storms', null, false), source('ibtracs', 'storms', null, true)]);
    expect(await fetchObsSourceState('storms')).toEqual({ state: 'pending', source: { label: 'NHC, IBTRACS', minutes: 30 } });
    status([source('nhc', 'storms', null, false), source('ibtracs', 'storms', null, false)]);
    expect(await fetchObsSourceState('storms')).toEqual({ state: 'unreachable', source: { label: 'NHC, IBTRACS', minutes: 30 } });
    expect(await fetchObsSourceState('radar')).toEqual({ state: 'none' });
    // Asked again on the shortest interval of those waited on.
    status([source('ibtracs', 'storms', null, false), source('mrms', 'radar', null, false), { ...source('radolan', 'radar', null, false), intervalMinutes: 3 }]);
    expect(await fetchObsSourceState('radar')).toEqual({ state: 'unreachable', source: { label: 'MRMS, RADOLAN', minutes: 3 } });
  });

  it('keeps only the sources asked for', async () => {
    status([source('awc', 'metars', null, false), source('ourairports', 'metars', '2026-11-29T10:00:00.000Z', true)]);
    expect(await fetchObsSourceState('metars', undefined, (id) => id !== 'ourairports')).toEqual({ state: 'unreachable', source: { label: 'AWC', minutes: 1440 } });
    expect(await fetchObsSourceState('metars', undefined, (id) => id === 'nothing')).toEqual({ state: 'none' });
  });

  it('a status that cannot be read is null; an abort stays an abort', async () => {
    status(new Response('<html>', { status: 502 }));
    expect(await fetchObsSourceState('storms')).toBeNull();
    status(new Response('{"sources": "many"}', { headers: { 'content-type': 'application/json' } }));
    expect(await fetchObsSourceState('storms')).toBeNull();
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    }));
    await expect(fetchObsSourceState('storms')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('what a window says: its own words where the source is fine or unknown, else why nothing is there', () => {
    const nhc = { label: 'NHC', minutes: 30 };
    expect(nothingShown({ state: 'serving', source: nhc }, 'none')).toEqual({ key: 'none', source: nhc });
    expect(nothingShown(null, 'none')).toEqual({ key: 'none' });
    expect(nothingShown({ state: 'none' }, 'none')).toEqual({ key: 'unavailable' });
    expect(nothingShown({ state: 'pending', source: nhc }, 'none')).toEqual({ key: 'pending', source: nhc });
    expect(nothingShown({ state: 'unreachable', source: nhc }, 'none')).toEqual({ key: 'unreachable', source: nhc });
  });
});
