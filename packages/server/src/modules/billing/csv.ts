/**
 * RFC 4180 CSV: a field with a comma, a quote or a line break is quoted, its quotes doubled; a
 * field a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with a quote so a
 * downloaded report cannot execute anything. Numbers stay as they are.
 */
export function csvField(value: string | null | undefined): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A header row and one row per record, lines ended by CRLF as RFC 4180 says. */
export function toCsv(header: string[], rows: (string | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\r\n').join('');
}
