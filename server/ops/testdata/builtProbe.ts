/** A module for server/build.test.ts: what `import.meta.url` and runtimeModule give once bundled. */

import { isBuiltServer, runtimeModule } from '../builtModules.ts';

export const probe = {
  url: import.meta.url,
  wasm: new URL('../../../engine/build/release.wasm', import.meta.url).href,
  built: isBuiltServer,
  tileThread: runtimeModule(new URL('../../data/tileThread.ts', import.meta.url)).href,
};
