import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { minifestPath } from '../../common/api/products.ts';
import { PRODUCTS_PATH } from '../../common/api/products.ts';
import { createDataModel } from './dataModel.ts';
import { createLayerModel } from './layerModel.ts';
import { createTimelineModel } from './timelineModel.ts';
import { HOUR_MS } from '../../common/time.ts';

const NOW = Date.UTC(2026, 10, 25, 7);
const minifest = (ref: string, extra: Record<string, unknown> = {}) => ({ ref, dst: [[1, 0, 12]], v: '1.0', ...extra });
const DEMO = minifest('2026-11-25T00:00:00Z', { demo: true });
const GFS = minifest('2026-11-25T06:00:00Z');

/** A server: answers are by path; everything else is a 404. Records the paths asked for. */
function serve(answers: Record<string, unknown | ((path: string) => Response)>): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: string) => {
    asked.push(input);
    const answer = answers[input];
    if (typeof answer === 'function') return (answer as (path: string) => Response)(input);
    if (answer === undefined) return new Response('{"message":"Not Found"}', { status: 404 });
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  }));
  return asked;
}

function model(product = 'ecmwf') {
  const layer = createLayerModel({ product });
  const timeline = createTimelineModel(() => NOW);
  return { layer, timeline, data: createDataModel(layer, timeline) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('data model start-up (which product the map opens with)', () => {
  it('starts from the product list alone: the first preferred product it has, with the minifest it carries', async () => {
    const asked = serve({
      [PRODUCTS_PATH]: { products: [
        { ident: 'gfs', directory: PRODUCTS.gfs.directory, ref: '2026112506', minifest: GFS },
        { ident: 'demo', directory: 'demo', ref: '2026112500', demo: true, minifest: DEMO },
      ] },
    });
    const { layer, timeline, data } = model();
    await data.start(['ecmwf']);
    expect(asked).toEqual([PRODUCTS_PATH]);
    expect(data.status.value).toBe('ready');
    expect(layer.product.value).toBe('gfs');
    expect(data.startProduct.value).toBe('gfs');
    expect(data.demo.value).toBe(false);
    expect(timeline.calendar.value?.refTime).toBe(Date.UTC(2026, 10, 25, 6));
    expect(data.served.value).toEqual([{ ident: 'gfs', ref: '2026112506' }, { ident: 'demo', ref: '2026112500', demo: true }]);
    data.dispose();
  });

  it('shows the demo product when it is all the server has', async () => {
    serve({ [PRODUCTS_PATH]: { products: [{ ident: 'demo', directory: 'demo', ref: '2026112500', demo: true, minifest: DEMO }] } });
    const { layer, timeline, data } = model();
    await data.start(['ecmwf']);
    expect(layer.product.value).toBe('demo');
    expect(data.demo.value).toBe(true);
    expect(timeline.timestamp.value).toBe(NOW);
    data.dispose();
  });

  it('asks a listed product its own address when the list carries no readable minifest for it', async () => {
    const asked = serve({
      [PRODUCTS_PATH]: { products: [{ ident: 'gfs', directory: PRODUCTS.gfs.directory, ref: '2026112506', minifest: { ref: 'soon' } }] },
      [minifestPath(PRODUCTS.gfs.directory)]: GFS,
    });
    const { layer, data } = model();
    await data.start(['ecmwf']);
    expect(asked).toEqual([PRODUCTS_PATH, minifestPath(PRODUCTS.gfs.directory)]);
    expect(layer.product.value).toBe('gfs');
    expect(data.status.value).toBe('ready');
    data.dispose();
  });

  it('without a readable list asks every candidate at once; the first in order that answers wins', async () => {
    const asked = serve({
      [PRODUCTS_PATH]: () => new Response('<html>proxy error</html>', { status: 502 }),
      [minifestPath('demo')]: DEMO,
      [minifestPath(PRODUCTS.icon.directory)]: minifest('2026-11-25T00:00:00Z'),
    });
    const { layer, data } = model();
    await data.start(['ecmwf']);
    expect(asked[0]).toBe(PRODUCTS_PATH);
    expect(asked.slice(1).sort()).toEqual(['ecmwf', 'gfs', 'icon', 'iconEu', 'demo'].map((p) => minifestPath(PRODUCTS[p].directory)).sort());
    expect(layer.product.value).toBe('icon');
    expect(data.served.value).toEqual([]);
    data.dispose();
  });

  it('reports the first candidate\'s failure when nothing answers, and an empty list as no product', async () => {
    serve({ [PRODUCTS_PATH]: () => new Response('', { status: 500 }) });
    const failing = model();
    await failing.data.start(['ecmwf']);
    expect(failing.data.status.value).toBe('error');
    expect(failing.data.error.value).toMatch(new RegExp(`${minifestPath(PRODUCTS.ecmwf.directory)}: HTTP 404`));

    serve({ [PRODUCTS_PATH]: { products: [{ ident: 'nothing-we-know', directory: 'x', ref: '2026112500', minifest: DEMO }] } });
    const empty = model();
    await empty.data.start(['ecmwf']);
    expect(empty.data.status.value).toBe('error');
    expect(empty.data.error.value).toBe('No product available');
  });

  it('a product from the address comes first when the server has it', async () => {
    serve({
      [PRODUCTS_PATH]: { products: [
        { ident: 'gfs', directory: PRODUCTS.gfs.directory, ref: '2026112506', minifest: GFS },
        { ident: 'demo', directory: 'demo', ref: '2026112500', demo: true, minifest: DEMO },
      ] },
    });
    const { layer, timeline, data } = model('demo');
    await data.start(['demo']);
    expect(layer.product.value).toBe('demo');
    expect(timeline.calendar.value?.end).toBe(Date.UTC(2026, 10, 25) + 12 * HOUR_MS);
    data.dispose();
  });
});
