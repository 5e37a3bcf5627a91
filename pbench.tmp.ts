// scratch: A/B timing of particle SIMD (and scalar) step for several wasm files, interleaved
import { readFile } from 'node:fs/promises';
import { Engine } from './engine/engine.ts';
import { createKernelSuites } from './bench/kernels.ts';

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const kernelArg = process.argv.find((a) => a.startsWith('--case='))?.slice(7) ?? 'WASM SIMD';
const setups = [];
for (const f of files) {
  const engine = await Engine.create(await WebAssembly.compile(await readFile(f)));
  const setup = createKernelSuites(engine);
  const c = setup.suites[0].cases.find((x) => x.name === kernelArg)!;
  setups.push({ f, run: c.run, times: [] as number[] });
}
for (const s of setups) for (let i = 0; i < 300; i++) s.run();
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 40);
const per = 20;
for (let r = 0; r < rounds; r++) {
  for (const s of setups) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) s.run();
    s.times.push((performance.now() - t0) / per);
  }
}
const med = (a: number[]) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
const min = (a: number[]) => Math.min(...a);
for (const s of setups) console.log(`${s.f.padEnd(28)} median ${med(s.times).toFixed(4)} ms  min ${min(s.times).toFixed(4)} ms`);
