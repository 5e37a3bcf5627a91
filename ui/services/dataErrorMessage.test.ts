import { signal } from '@preact/signals-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOP_MESSAGE_REPLACE_MS } from '../../common/limits.ts';
import { DATA_ERROR_MESSAGE, startDataErrorMessage } from './dataErrorMessage.ts';
import { createMessagesModel } from '../state/messages.ts';

describe('the data error as a top message (SPEC §8: "Error loading forecast for {{model}}" with Retry)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(initial = 'loading') {
    const messages = createMessagesModel();
    const status = signal(initial);
    const modelName = signal('ECMWF IFS');
    const online = signal(true);
    const reload = vi.fn(() => {
      status.value = 'loading';
    });
    const stop = startDataErrorMessage({ messages, status, modelName, online, reload });
    return { messages, status, modelName, online, reload, stop };
  }

  it('shows while the data is in error, with the model and a Retry action that reloads; goes when the data loads', () => {
    const t = setup();
    expect(t.messages.top.value).toBeNull();
    t.status.value = 'error';
    expect(t.messages.top.value).toMatchObject({
      key: 'app.dataError', params: { model: 'ECMWF IFS' }, kind: 'error', name: DATA_ERROR_MESSAGE, action: { key: 'app.retry' }, phase: 'shown',
    });
    t.messages.top.value!.action!.run();
    expect(t.reload).toHaveBeenCalledTimes(1);
    expect(t.messages.top.value?.phase).toBe('leaving');
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toBeNull();
    t.status.value = 'ready';
    expect(t.messages.top.value).toBeNull();
  });

  it('an error already there when the services start shows at once', () => {
    const t = setup('error');
    expect(t.messages.top.value?.name).toBe(DATA_ERROR_MESSAGE);
  });

  it('offline it gives way to the offline message; another model\'s error replaces it', () => {
    const t = setup('error');
    const first = t.messages.top.value!.id;
    // The connection goes down: the offline message (connectionModel) replaces it, and it is not shown again meanwhile.
    t.online.value = false;
    t.messages.show({ key: 'connection.offline', kind: 'error', name: 'offline' });
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value?.name).toBe('offline');
    t.status.value = 'loading';
    t.status.value = 'error';
    expect(t.messages.top.value?.name).toBe('offline');
    // Back online with the data still in error: shown again (the connection's reload may fix it).
    t.online.value = true;
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toMatchObject({ name: DATA_ERROR_MESSAGE, params: { model: 'ECMWF IFS' } });
    expect(t.messages.top.value!.id).not.toBe(first);
    t.modelName.value = 'GFS';
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toMatchObject({ name: DATA_ERROR_MESSAGE, params: { model: 'GFS' }, phase: 'shown' });
    t.stop();
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toBeNull();
  });
});
