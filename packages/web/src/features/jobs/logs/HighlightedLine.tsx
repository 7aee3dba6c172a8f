import { Fragment, type ReactNode } from 'react';

/** A log line with every case-insensitive occurrence of the search text marked. */
export function HighlightedLine({ text, needle }: { text: string; needle: string }) {
  if (!needle) return <>{text}</>;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    parts.push(
      <Fragment key={at}>
        {text.slice(from, at)}
        <mark style={{ background: 'var(--mantine-color-yellow-4)', color: 'black' }}>
          {text.slice(at, at + needle.length)}
        </mark>
      </Fragment>,
    );
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}
