import { describe, expect, it } from 'vitest';
import { htmlScripts } from './initialJs.ts';

describe('htmlScripts', () => {
  it('lists the module script and the modulepreload links, not other scripts or links', () => {
    const html = `<!doctype html><head>
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <script type="module" crossorigin src="/assets/boot-1a2b.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/shared-3c4d.js">
      <link rel="stylesheet" href="/assets/app-5e6f.css">
      <script src="/legacy.js"></script>
    </head>`;
    expect(htmlScripts(html)).toEqual(['assets/boot-1a2b.js', 'assets/shared-3c4d.js']);
  });

  it('finds nothing in a page without module scripts', () => {
    expect(htmlScripts('<html><body><script>var a = 1;</script></body></html>')).toEqual([]);
  });
});
