/**
 * The codec rows of the GRIB2 decode bench alone (templates 5.40 JPEG 2000, 5.41 PNG, 5.42 CCSDS),
 * each followed by ecCodes on the same message as bench/run.ts does, so the ours / ecCodes ratios
 * of a codec change can be measured in one run without the whole bench:
 *
 *   npx tsx bench/codecs.ts [5.40 5.41 5.42]     (after npm run build:engine; default: all three)
 */

import { messageKey, runEccodesBench } from './eccodes.ts';
import { runGribBench } from './grib.ts';

const fmt = (n: number, d: number) => n.toFixed(d);

const CODEC_TEMPLATES = ['5.40', '5.41', '5.42'];
const asked = process.argv.slice(2);
const unknown = asked.filter((t) => !CODEC_TEMPLATES.includes(t));
if (unknown.length) throw new Error(`bench/codecs.ts: ${unknown.join(', ')} not among ${CODEC_TEMPLATES.join(', ')}`);

const rows: string[] = [];
await runGribBench({
  templates: asked.length ? asked : CODEC_TEMPLATES,
  afterCase: async (r) => {
    const report = await runEccodesBench([r]);
    let ec: string;
    if (report.available) {
      const e = report.results.get(messageKey(r.path, r.message));
      if (e && !('error' in e)) {
        const strict = e.preallocated?.medianMs;
        ec = `ecCodes ${report.version} ${strict === undefined ? '—' : fmt(strict, 2)} ms decode only, ${fmt(e.allocating.medianMs, 2)} ms codes_get_values;`
          + ` ours / ecCodes ${strict === undefined ? '—' : fmt(strict / r.medianMs, 2)}x / ${fmt(e.allocating.medianMs / r.medianMs, 2)}x`;
      } else {
        ec = e ? e.error : 'not decoded by ecCodes';
      }
    } else {
      ec = `ecCodes unavailable: ${report.reason}`;
    }
    const row = `${r.name}: ours ${fmt(r.medianMs, 2)} ms (${fmt(r.valuesPerSecond / 1e6, 1)} M values/s); ${ec}`;
    console.log(row);
    rows.push(row);
  },
});
if (rows.length === 0) console.warn('[bench/codecs] no codec case measured (fixtures absent?)');
