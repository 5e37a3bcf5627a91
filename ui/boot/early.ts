/**
 * The first module main.ts evaluates (ES modules run in import order, dependencies first): it
 * starts the render worker before the rest of the start-up bundle runs, so the worker's script,
 * the engine's compilation and WebGL's start-up overlap the page's own start. Inside a foreign
 * frame (SPEC §2) nothing starts; main.ts shows the notice.
 */

import { bootGuards } from './guards.ts';
import { renderWorker } from '../map/renderWorker.ts';

if (!bootGuards().foreignEmbed) renderWorker();
