export * from './accumulations.ts';
export * from './colors.ts';
export * from './levels.ts';
export * from './metrics.ts';
export * from './overlays.ts';
export * from './products.ts';
export * from './variables.ts';
