/**
 * RFC 4180 CSV rows (quoted fields with doubled quotes, CRLF or LF), for the two CSV files the
 * airport sources read: aviationweather.gov's metars.cache.csv and OurAirports' runways.csv.
 */
export function* csvRows(text: string): Generator<string[]> {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new SyntaxError('unterminated quoted field');
          field += text.slice(i, q);
          i = q + 1;
          if (text[i] === '"') { field += '"'; i++; } else break;
        }
      } else {
        let end = i;
        while (end < n && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
        field = text.slice(i, end);
        i = end;
      }
      row.push(field);
      if (text[i] === ',') { i++; continue; }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      break;
    }
    yield row;
  }
}
