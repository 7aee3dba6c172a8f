import type { ReactNode } from 'react';
import { Anchor, Box, Stack, Text, Typography } from '@mantine/core';
import Markdown from 'react-markdown';
import type { Citation, CopilotAnswer } from '@orrery/contract';
import { ContextLink } from '../../app/context/ContextLink';
import { ASSISTANT_TEXTS as T } from './texts';

/** Docs pages are served beside the console, not by its router: they open in a new tab. */
const isDocs = (url: string) => url.startsWith('/docs/');
/** A path of this console: `//host` and `/\host` are other sites to a browser. */
const isOwnPath = (url: string) => /^\/(?![/\\])/.test(url);
const isConsolePath = (url: string) => isOwnPath(url) && !isDocs(url);

/** A link in an answer: docs in a new tab, resources inside the console, the web outside it. */
export function AnswerLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (href && isConsolePath(href)) {
    return (
      <Anchor component={ContextLink} to={href} size="sm">
        {children}
      </Anchor>
    );
  }
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
      {children}
    </Anchor>
  );
}

/**
 * A link written in an answer's text. An answer quotes what users and their jobs wrote (a log, a
 * name), and a model may repeat it: only the console's own pages and docs are links; any other
 * address stays text, shown in full so that nobody clicks on words that hide it.
 */
export function AnswerTextLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (href && isOwnPath(href)) return <AnswerLink href={href}>{children}</AnswerLink>;
  const label = typeof children === 'string' ? children : null;
  return (
    <Text span inherit>
      {children}
      {href && href !== label ? ` (${href})` : null}
    </Text>
  );
}

/**
 * An image written in an answer is never loaded (a remote image tells its server who read the
 * answer, and when): its description stays as text.
 */
export function AnswerImage({ alt }: { alt?: string }) {
  return (
    <Text span inherit c="dimmed">
      {T.image(alt ?? '')}
    </Text>
  );
}

/**
 * `[n]` markers become links to their citation. A marker with no citation stays plain text, and
 * one already written as a link (`[1](…)`) or a reference definition is left alone.
 */
export function linkCitations(markdown: string, citations: Citation[]) {
  const byN = new Map(citations.map((c) => [c.n, c]));
  return markdown.replace(/\[(\d+)\](?![(:[])/g, (marker, n: string) => {
    const citation = byN.get(Number(n));
    if (!citation) return marker;
    const title = citation.title.replace(/["\\]/g, '');
    return `[\\[${n}\\]](<${citation.url}> "${title}")`;
  });
}

export function Answer({ answer }: { answer: CopilotAnswer }) {
  return (
    <Stack gap={6}>
      <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {/* react-markdown renders no raw HTML: an answer cannot inject markup. */}
        <Markdown components={{ a: AnswerTextLink, img: AnswerImage }}>
          {linkCitations(answer.response, answer.citations)}
        </Markdown>
      </Typography>
      {answer.citations.length > 0 && (
        <Stack gap={2} aria-label={T.sources} role="group">
          <Text size="xs" fw={600} c="dimmed">
            {T.sources}
          </Text>
          <Stack component="ol" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
            {answer.citations.map((c) => (
              <Box component="li" key={c.n}>
                <Text span size="xs" c="dimmed">
                  [{c.n}]{' '}
                </Text>
                <AnswerLink href={c.url}>{c.title}</AnswerLink>
                {c.snippet && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {c.snippet}
                  </Text>
                )}
              </Box>
            ))}
          </Stack>
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        {T.answeredBy(answer.engine, answer.mode, answer.iterations)}
      </Text>
      {answer.notice && (
        <Text size="xs" c="orange.8" role="note">
          {answer.notice}
        </Text>
      )}
    </Stack>
  );
}
