import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowDown,
  IconCheck,
  IconChevronDown,
  IconChevronUp,
  IconClock,
  IconCopy,
  IconDownload,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconSearch,
} from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { notifyError } from '../../../ui/notify';
import { COPIED_MS } from '../../images/CopyAction';
import { JOBS_TEXTS } from '../texts';
import { downloadText } from './download';
import { HighlightedLine } from './HighlightedLine';
import type { LogStatus } from './useLogStream';
import { PAGE_SEARCH_PROPS } from '../../../app/shortcuts/shortcuts';

const T = JOBS_TEXTS.logs;
/** Fixed-height rows keep the virtualizer exact without measuring 100k lines. */
export const LOG_LINE_HEIGHT = 20;
/** The viewport below the page's header, notices, tabs and toolbar. */
const LOG_HEIGHT = 'calc(100vh - 400px)';

export interface LogViewProps {
  /** The lines read so far; only the first `count` are shown (the array may grow in place). */
  lines: readonly string[];
  count: number;
  status: LogStatus;
  error: string | null;
  /** The name of the viewport for assistive technology. */
  region: string;
  fileName: string;
  timestamps: boolean;
  onTimestamps: (on: boolean) => void;
  /** Reads the log again from its start. */
  onReload: () => void;
  /** A label before line i (an app's container); copies and downloads keep it. */
  labelOf?: (i: number) => string | undefined;
  /** The page's own controls (an app's container filter). */
  filters?: ReactNode;
  /** The text while the stream is open and has no line yet. */
  waiting?: string;
}

/**
 * A log viewer: virtualized with @tanstack/react-virtual, with follow (stick to
 * the end), pause (hold new lines back), timestamps (read again with `timestamps=1`), search with
 * highlighting, and copy and download of the lines read. The job page and an app's Log tab show
 * their streams with it.
 */
export function LogView(props: LogViewProps) {
  const { lines, count, labelOf } = props;
  const [follow, setFollow] = useState(true);
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [current, setCurrent] = useState(0);
  const [copied, setCopied] = useState(false);
  // A filter can shrink the lines under a pause.
  const shown = Math.min(pausedAt ?? count, count);

  const needle = search.trim().toLowerCase();
  const matches = useMemo(() => {
    if (!needle) return [];
    const found: number[] = [];
    for (let i = 0; i < shown; i++) if (lines[i].toLowerCase().includes(needle)) found.push(i);
    return found;
  }, [needle, shown, lines]);

  const scroller = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: shown,
    getScrollElement: () => scroller.current,
    estimateSize: () => LOG_LINE_HEIGHT,
    overscan: 20,
  });

  useEffect(() => {
    if (follow && shown > 0) virtualizer.scrollToIndex(shown - 1, { align: 'end' });
  }, [follow, shown, virtualizer]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const goTo = (step: number) => {
    if (!matches.length) return;
    const next = (current + step + matches.length) % matches.length;
    setCurrent(next);
    setFollow(false);
    virtualizer.scrollToIndex(matches[next], { align: 'center' });
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el || !follow) return;
    // Scrolling up to read stops following; the Follow button brings it back.
    if (el.scrollTop + el.clientHeight < el.scrollHeight - 2 * LOG_LINE_HEIGHT) setFollow(false);
  };

  /** Everything read so far (held-back lines too), labelled as on screen. */
  const readLines = () =>
    lines.slice(0, count).map((text, i) => {
      const label = labelOf?.(i);
      return label ? `[${label}] ${text}` : text;
    });
  // Browsers offer the clipboard to secure pages only (HTTPS or localhost).
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  const copy = async () => {
    const text = readLines().join('\n');
    try {
      await clipboard!.writeText(text ? `${text}\n` : '');
    } catch {
      notifyError(T.copyFailed);
      return;
    }
    setCopied(true);
  };

  const togglePause = () => setPausedAt((at) => (at === null ? count : null));
  const restart = () => {
    setPausedAt(null);
    props.onReload();
  };

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          size="xs"
          variant={follow ? 'filled' : 'default'}
          aria-pressed={follow}
          leftSection={<IconArrowDown size={14} />}
          onClick={() => setFollow((f) => !f)}
        >
          {T.follow}
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={
            pausedAt === null ? <IconPlayerPause size={14} /> : <IconPlayerPlay size={14} />
          }
          onClick={togglePause}
        >
          {pausedAt === null ? T.pause : T.resume}
        </Button>
        <Button
          size="xs"
          variant={props.timestamps ? 'filled' : 'default'}
          aria-pressed={props.timestamps}
          leftSection={<IconClock size={14} />}
          onClick={() => {
            setPausedAt(null);
            props.onTimestamps(!props.timestamps);
          }}
        >
          {T.timestamps}
        </Button>
        {props.filters}
        <TextInput
          size="xs"
          aria-label={T.search}
          placeholder={T.search}
          leftSection={<IconSearch size={14} />}
          {...PAGE_SEARCH_PROPS}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setCurrent(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') goTo(e.shiftKey ? -1 : 1);
          }}
          w={220}
        />
        {needle && (
          <>
            <Text size="xs" c="dimmed">
              {T.matches(matches.length)}
            </Text>
            <Tooltip label={T.previous}>
              <ActionIcon variant="subtle" aria-label={T.previous} onClick={() => goTo(-1)}>
                <IconChevronUp size={14} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={T.next}>
              <ActionIcon variant="subtle" aria-label={T.next} onClick={() => goTo(1)}>
                <IconChevronDown size={14} />
              </ActionIcon>
            </Tooltip>
          </>
        )}
        <Group gap="xs" ml="auto">
          <Tooltip label={T.copyNeedsHttps} disabled={!!clipboard}>
            <span>
              <Button
                size="xs"
                variant="default"
                disabled={!clipboard}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={() => void copy()}
              >
                {copied ? T.copied : T.copy}
              </Button>
            </span>
          </Tooltip>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} />}
            onClick={() => downloadText(props.fileName, readLines())}
          >
            {T.download}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={restart}
          >
            {T.reload}
          </Button>
        </Group>
      </Group>
      {props.error && <Alert color="red">{props.error}</Alert>}
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={props.region}
        h={LOG_HEIGHT}
        mih={240}
        style={{
          overflow: 'auto',
          fontFamily: 'var(--mantine-font-family-monospace)',
          fontSize: 13,
          background: 'var(--mantine-color-dark-8)',
          color: 'var(--mantine-color-gray-3)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        {shown === 0 ? (
          <Text p="sm" size="sm" c="dimmed">
            {props.status === 'streaming' ? (props.waiting ?? T.streaming) : T.empty}
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const label = labelOf?.(row.index);
              return (
                <div
                  key={row.index}
                  data-line={row.index}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    minWidth: '100%',
                    height: LOG_LINE_HEIGHT,
                    lineHeight: `${LOG_LINE_HEIGHT}px`,
                    transform: `translateY(${row.start}px)`,
                    whiteSpace: 'pre',
                    padding: '0 8px',
                    background:
                      matches[current] === row.index ? 'var(--mantine-color-dark-5)' : undefined,
                  }}
                >
                  {label && (
                    <span data-label style={{ color: 'var(--mantine-color-blue-3)' }}>
                      {`[${label}] `}
                    </span>
                  )}
                  <HighlightedLine text={lines[row.index]} needle={needle} />
                </div>
              );
            })}
          </div>
        )}
      </Box>
      <Text size="xs" c="dimmed" aria-live="polite">
        {[
          T.lines(shown),
          pausedAt !== null
            ? T.paused(Math.max(0, count - pausedAt))
            : props.status === 'streaming'
              ? T.streaming
              : props.status === 'ended'
                ? T.ended
                : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Stack>
  );
}
