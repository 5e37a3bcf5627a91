import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOP_MESSAGE_REPLACE_MS } from '../../common/limits.ts';
import { createMessagesModel } from './messages.ts';

describe('top message banner (SPEC §2, §9 replacement 200 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows at once when nothing is shown', () => {
    const m = createMessagesModel();
    m.show({ key: 'a' });
    expect(m.top.value).toMatchObject({ key: 'a', phase: 'shown', kind: 'info' });
  });

  it('a new message replaces the shown one: the old leaves for 200 ms, then the new shows', () => {
    const m = createMessagesModel();
    m.show({ key: 'a' });
    const b = m.show({ key: 'b', kind: 'error' });
    expect(m.top.value).toMatchObject({ key: 'a', phase: 'leaving' });
    expect(m.isActive(b)).toBe(true);
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS - 1);
    expect(m.top.value?.key).toBe('a');
    vi.advanceTimersByTime(1);
    expect(m.top.value).toMatchObject({ key: 'b', phase: 'shown', kind: 'error' });
  });

  it('only the last of several quick messages shows', () => {
    const m = createMessagesModel();
    m.show({ key: 'a' });
    m.show({ key: 'b' });
    m.show({ key: 'c' });
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(m.top.value?.key).toBe('c');
  });

  it('a timed message hides itself, counted from when it shows', () => {
    const m = createMessagesModel();
    m.show({ key: 'a' });
    m.show({ key: 'b', durationMs: 1000 });
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS + 999);
    expect(m.top.value).toMatchObject({ key: 'b', phase: 'shown' });
    vi.advanceTimersByTime(1);
    expect(m.top.value).toMatchObject({ key: 'b', phase: 'leaving' });
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(m.top.value).toBeNull();
  });

  it('hide() of a message that waits drops it; of another message does nothing', () => {
    const m = createMessagesModel();
    const a = m.show({ key: 'a' });
    const b = m.show({ key: 'b' });
    m.hide(b);
    vi.advanceTimersByTime(TOP_MESSAGE_REPLACE_MS);
    expect(m.top.value).toBeNull();
    const c = m.show({ key: 'c' });
    m.hide(a);
    expect(m.top.value).toMatchObject({ key: 'c', phase: 'shown' });
    expect(m.isActive(c)).toBe(true);
  });
});
