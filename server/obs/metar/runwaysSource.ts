/**
 * OurAirports runways (ourairports.com/data/, public domain) for the airport window's runway list:
 * {base}/runways.csv, base https://davidmegginson.github.io/ourairports-data (ISOBAR_OURAIRPORTS_URL),
 * the daily export's URL layout. The file is checked (ourairports.ts) and kept as it is under
 * obs/metars/runways.csv; the airport route reads it. Polled once a day.
 */

import { RUNWAYS_FILE, RUNWAYS_SOURCE_ID } from '../../../common/api/airports.ts';
import { DAY_MS, MINUTE_MS } from '../../../common/time.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { parseRunwaysCsv, RunwaysFormatError } from './ourairports.ts';

export const OURAIRPORTS_DEFAULT_URL = 'https://davidmegginson.github.io/ourairports-data';

export class OurAirportsRunwaysSource implements ObsSource {
  readonly id = RUNWAYS_SOURCE_ID;
  readonly kind = 'metars' as const;
  readonly label = 'OurAirports runways';
  readonly attribution = 'OurAirports, ourairports.com (public domain)';
  readonly intervalMinutes = DAY_MS / MINUTE_MS;

  constructor(private readonly baseUrl = OURAIRPORTS_DEFAULT_URL) {}

  async poll(ctx: ObsContext): Promise<void> {
    const what = `/${RUNWAYS_FILE}`;
    const text = await ctx.http.text(`${this.baseUrl}${what}`, ctx.signal);
    if (text === null) throw new ObsDataError(this.id, what, 'not found (404)');
    let table;
    try {
      table = parseRunwaysCsv(text);
    } catch (error) {
      if (error instanceof RunwaysFormatError || error instanceof SyntaxError) throw new ObsDataError(this.id, what, error.message);
      throw error;
    }
    if (table.rows === 0) throw new ObsDataError(this.id, what, 'no runway rows');
    if (table.skipped > 0) ctx.log.warn({ source: this.id, skipped: table.skipped }, 'runways.csv rows skipped (unreadable)');
    await ctx.store.writeFile('metars', RUNWAYS_FILE, text);
  }
}
