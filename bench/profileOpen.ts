/**
 * Where main-thread time goes (a diagnosis aid, not a benchmark): at a CPU throttling rate, opens the
 * map, lets it animate, pans it and opens the point forecast while the DevTools CPU profiler runs, and prints the
 * long tasks and the functions with the most self time in each phase.
 *
 *   npx tsx bench/profileOpen.ts <baseUrl> [rate]
 *
 * Phases: start-up (long tasks only), animating (5 s from when the view is drawn), panning, opening the point forecast.
 */

import { chromium, type CDPSession } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../playwright.config.ts';
import { openForecast, panAround, watchLongTasks } from './frames.ts';
import { longTaskBreakdown, type Profile, topSelf, type TraceEvent } from './profiling.ts';

async function phase(cdp: CDPSession, name: string, run: () => Promise<void>, readTasks: () => Promise<number[]>): Promise<void> {
  const before = (await readTasks()).length;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', '__metadata'] });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: Profile };
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const tasks = (await readTasks()).slice(before);
  console.log(`\n== ${name}: long tasks ${tasks.map((t) => Math.round(t)).join(', ') || 'none'}`);
  for (const line of longTaskBreakdown(trace.traceEvents)) console.log(line);
  for (const line of topSelf(profile)) console.log(line);
}

const [baseUrl = 'http://127.0.0.1:8300', rateText = '4'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
const page = await context.newPage();
await watchLongTasks(page);
const readTasks = () => page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rateText) });
await page.goto(`${baseUrl}/?45.000,-30.000,3`, { waitUntil: 'commit' });
await page.waitForFunction(() => performance.getEntriesByName('isobar:first-particles').length > 0, undefined, { timeout: 60_000, polling: 50 });
console.log(`start-up long tasks: ${(await readTasks()).map((t) => Math.round(t)).join(', ')}`);
// As the frame harness measures 'animating': from when the view's tiles are in and 30 frames drawn.
await page.waitForFunction(async () => {
  const s = await (window as unknown as { isobar: { render(): { stats(): Promise<{ tiles: { loading: number }; frames: number }> } } }).isobar.render().stats();
  return s.tiles.loading === 0 && s.frames > 30;
}, undefined, { timeout: 30_000, polling: 200 });
await phase(cdp, 'animating', () => page.waitForTimeout(5000), readTasks);
await phase(cdp, 'panning', () => panAround(page), readTasks);
await phase(cdp, 'opening the point forecast', () => openForecast(page), readTasks);
await browser.close();
