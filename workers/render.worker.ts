/** The render worker: a thin comlink expose() of the Renderer (STYLE.md habit 1). */
import { expose } from 'comlink';
import wasmUrl from '../engine/build/release.wasm?url';
import { Engine } from '../engine/engine.ts';
import { Renderer } from './renderer.ts';

// Compile the engine at once, while the page is still starting.
const engine = WebAssembly.compileStreaming(fetch(wasmUrl)).then((module) => Engine.create(module));
const renderer = new Renderer(engine, self.location.origin);
renderer.milestone('workerCreated', performance.timeOrigin);
renderer.milestone('workerBoot');
expose(renderer);
