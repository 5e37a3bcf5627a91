/** The render worker: a thin comlink expose() of the Renderer (STYLE.md habit 1). */
import { expose } from 'comlink';
import wasmUrl from '../engine/build/release.wasm?url';
import { Renderer } from './renderer.ts';

expose(new Renderer(wasmUrl));
