import { useEffect, useMemo, useRef, useState } from 'react';
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
  IconChevronDown,
  IconChevronUp,
  IconClock,
  IconDownload,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconSearch,
} from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Job } from '../../../api/jobs';
import { jobLabel } from '../rules';
import { JOBS_TEXTS } from '../texts';
import { downloadText } from './download';
import { HighlightedLine } from './HighlightedLine';
import { useLogStream } from './useLogStream';

const T = JOBS_TEXTS.logs;
/** Fixed-height rows keep the virtualizer exact without measuring 100k lines. */
export const LOG_LINE_HEIGHT = 20;
/** The viewport below the page's header, notices, tabs and toolbar. */
const LOG_HEIGHT = 'calc(100vh - 400px)';

/**
 * Logs (workloads §2): streamed while the job runs, virtualized with @tanstack/react-virtual, with
 * follow (stick to the end), pause (hold new lines back), timestamps (read again with
 * `timestamps=1`), search with highlighting and download of everything read so far.
 */
export function LogsTab(props: { job: Job; monitoringUrl: string; token: string | null }) {
  const { job } = props;
  const [timestamps, setTimestamps] = useState(false);
  const [reload, setReload] = useState(0);
  const [follow, setFollow] = useState(true);
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [current, setCurrent] = useState(0);
  const log = useLogStream({
    monitoringUrl: props.monitoringUrl,
    jobId: job.id,
    token: props.token,
    timestamps,
    reload,
  });
  const shown = pausedAt ?? log.count;

  const needle = search.trim().toLowerCase();
  const matches = useMemo(() => {
    if (!needle) return [];
    const found: number[] = [];
    const lines = log.lines.current;
    for (let i = 0; i < shown; i++) if (lines[i].toLowerCase().includes(needle)) found.push(i);
    return found;
  }, [needle, shown, log.lines]);

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

  const togglePause = () => setPausedAt((at) => (at === null ? log.count : null));
  const restart = () => {
    setPausedAt(null);
    setReload((n) => n + 1);
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
          variant={timestamps ? 'filled' : 'default'}
          aria-pressed={timestamps}
          leftSection={<IconClock size={14} />}
          onClick={() => {
            setPausedAt(null);
            setTimestamps((t) => !t);
          }}
        >
          {T.timestamps}
        </Button>
        <TextInput
          size="xs"
          aria-label={T.search}
          placeholder={T.search}
          leftSection={<IconSearch size={14} />}
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
          <Button
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} />}
            onClick={() =>
              downloadText(`${jobLabel(job)}.log`, log.lines.current.slice(0, log.count))
            }
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
      {log.error && <Alert color="red">{log.error}</Alert>}
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={T.region}
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
            {log.status === 'streaming' ? T.streaming : T.empty}
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => (
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
                <HighlightedLine text={log.lines.current[row.index]} needle={needle} />
              </div>
            ))}
          </div>
        )}
      </Box>
      <Text size="xs" c="dimmed" aria-live="polite">
        {[
          T.lines(shown),
          pausedAt !== null
            ? T.paused(log.count - pausedAt)
            : log.status === 'streaming'
              ? T.streaming
              : log.status === 'ended'
                ? T.ended
                : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Stack>
  );
}
