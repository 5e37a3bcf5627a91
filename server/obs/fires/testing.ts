/**
 * Test helper. There is no real FIRMS or HMS answer in ../shared/data: these small files are built
 * by hand from the providers' documented columns (FIRMS area API CSV for VIIRS and MODIS; HMS fire
 * points text), to exercise the readers and the e2e firespots layer. They are not observations.
 */

/** FIRMS VIIRS CSV (area API, VIIRS_NOAA20_NRT), built from the documented columns. */
export const FIRMS_VIIRS_CSV_BUILT = [
  'latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight',
  '39.81234,-121.43210,340.5,0.39,0.36,2024-07-14,0412,N20,VIIRS,h,2.0NRT,295.1,12.7,N',
  '-9.50000,-56.20000,331.0,0.45,0.39,2024-07-14,1736,N20,VIIRS,n,2.0NRT,300.2,4.1,D',
  '61.50000,129.40000,300.1,0.51,0.41,2024-07-14,35,N20,VIIRS,l,2.0NRT,280.0,1.3,N',
].join('\n') + '\n';

/** FIRMS MODIS CSV (area API, MODIS_NRT), built from the documented columns. */
export const FIRMS_MODIS_CSV_BUILT = [
  'latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_t31,frp,daynight',
  '-15.50000,28.30000,322.4,1.1,1.0,2024-07-14,0825,T,MODIS,78,6.1NRT,299.9,21.5,D',
].join('\n') + '\n';

/** HMS fire points text, built from the documented header and columns. */
export const HMS_TEXT_BUILT = [
  '  Lon,     Lat,  YearDay,  Time,       Satellite,  Method of Detect,   Ecosystem,  Frp',
  ' -118.543,   34.123,  2024196,  0412,       GOES-WEST,  FDC,   33,   12.700',
  '  -95.210,   29.870,  2024196,  1830,       NOAA 20,  VIIRS,   22, -999.000',
].join('\n') + '\n';
