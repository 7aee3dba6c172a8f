/** Dates and times as every page shows them: `Nov 22, 2026, 3:11 AM` in the reader's locale. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string) => dateTime.format(new Date(iso));
/** Storage reports Unix seconds. */
export const formatUnixSeconds = (seconds: number) => dateTime.format(new Date(seconds * 1000));
