import { getPriority } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusyError, defaultPoolSize, WorkerPool } from './workerPool.ts';
import type { TestAnswer, TestTask } from './workerPoolTestTask.ts';

const MODULE = new URL('./workerPoolTestTask.ts', import.meta.url);

/** A closed gate (workerPoolTestTask.ts) and the function that opens it. */
function gate(): { gate: Int32Array; open(): void } {
  const shared = new Int32Array(new SharedArrayBuffer(4));
  return { gate: shared, open: () => { Atomics.store(shared, 0, 1); Atomics.notify(shared, 0); } };
}

describe('WorkerPool', () => {
  const pools: WorkerPool<TestTask, TestAnswer>[] = [];
  const pool = (size: number, maxQueued: number) => {
    const p = new WorkerPool<TestTask, TestAnswer>({ module: MODULE, name: 'test pool', size, maxQueued });
    pools.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('leaves a core to the event loop', () => {
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
    expect(() => new WorkerPool({ module: MODULE, name: 'x', size: 0, maxQueued: 1 })).toThrow(/pool size/);
  });

  it('runs its threads at the nice value asked, and leaves the event loop thread as it was', async () => {
    const before = getPriority(0);
    const p = new WorkerPool<TestTask, TestAnswer>({ module: MODULE, name: 'test pool', size: 1, maxQueued: 1, nice: 10 });
    pools.push(p);
    const answer = await p.run({ value: 1 });
    expect(answer.nice).toBe(10);
    expect(getPriority(0)).toBe(before);
  });

  it('runs a TypeScript task module on its threads and answers each task', async () => {
    const p = pool(2, 4);
    const answers = await Promise.all([1, 2, 3].map((value) => p.run({ value })));
    expect(answers.map((a) => a.value)).toEqual([1, 2, 3]);
    expect(p.stats()).toMatchObject({ size: 2, busy: 0, queued: 0, completed: 3, failed: 0, refused: 0 });
    expect(p.stats().threads).toBeLessThanOrEqual(2);
  });

  it('queues up to maxQueued tasks while its threads are busy, refuses the next with BusyError, then runs the queue', async () => {
    const p = pool(1, 2);
    const g = gate();
    const running = p.run({ gate: g.gate, value: 1 });
    const queued = [p.run({ value: 2 }), p.run({ value: 3 })];
    expect(p.stats()).toMatchObject({ busy: 1, queued: 2 });
    const refused = await p.run({ value: 4 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BusyError);
    expect((refused as BusyError).statusCode).toBe(503);
    expect((refused as BusyError).retryAfterS).toBeGreaterThanOrEqual(1);
    expect((refused as BusyError).message).toMatch(/test pool: 2 tasks waiting for 1 thread/);
    g.open();
    expect((await Promise.all([running, ...queued])).map((a) => a.value)).toEqual([1, 2, 3]);
    expect(p.stats()).toMatchObject({ completed: 3, refused: 1, queued: 0, busy: 0 });
    // Room again.
    expect((await p.run({ value: 5 })).value).toBe(5);
  });

  it('rejects a task that throws with its message and goes on', async () => {
    const p = pool(1, 1);
    await expect(p.run({ fail: 'bad input' })).rejects.toThrow('test pool: bad input');
    expect((await p.run({ value: 7 })).value).toBe(7);
    expect(p.stats()).toMatchObject({ failed: 1, completed: 1 });
  });

  it('fails the task of a thread that dies and runs the queue on a new thread', async () => {
    const p = pool(1, 2);
    const g = gate();
    const dying = p.run({ gate: g.gate, exit: 3 });
    const next = p.run({ value: 8 });
    g.open();
    await expect(dying).rejects.toThrow(/exited \(code 3\)/);
    const answer = await next;
    expect(answer.value).toBe(8);
    expect(p.stats()).toMatchObject({ threads: 1, failed: 1, completed: 1 });
  });

  it('fails waiting tasks when closed and refuses new ones', async () => {
    const p = pool(1, 2);
    const g = gate();
    const running = p.run({ gate: g.gate, value: 1 }).catch((error: Error) => error.message);
    const waiting = p.run({ value: 2 }).catch((error: Error) => error.message);
    await vi.waitFor(() => expect(p.stats().busy).toBe(1));
    await p.close();
    expect(await waiting).toMatch(/closed before the task ran/);
    expect(await running).toMatch(/closed while the task ran/);
    await expect(p.run({ value: 3 })).rejects.toThrow(/closed/);
  });
});
