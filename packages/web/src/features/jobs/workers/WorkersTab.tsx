import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { runInJob, type CommandResult, type Job } from '../../../api/jobs';
import { useCanOne, withRule } from '../../../api/permissions';
import { WhyNot } from '../../../ui/WhyNot';
import { LogsTab } from '../logs/LogsTab';
import { JOBS_TEXTS } from '../texts';

const T = JOBS_TEXTS.workers;
/** Beyond this many workers a list to pick from, not a row of buttons. */
const SEGMENTS_AT_MOST = 8;

/** How many workers the job has (`nodes`): 1 for most jobs. */
export const workersOf = (job: Job) => job.nodes ?? 1;

/**
 * Workers (a job of several, docs/jobs.md "Distributed jobs"): pick a worker by its rank, read
 * its own output, and run a command in it while the job runs (the exec route's `?worker=N`).
 */
export function WorkersTab(props: { job: Job; monitoringUrl: string; token: string | null }) {
  const { job } = props;
  const count = workersOf(job);
  const [worker, setWorker] = useState(0);
  const options = [...Array(count).keys()].map((r) => ({ value: String(r), label: T.rank(r) }));
  const pick = (v: string | null) => v !== null && setWorker(Number(v));
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {T.intro(count)}
      </Text>
      {count <= SEGMENTS_AT_MOST ? (
        <SegmentedControl
          aria-label={T.worker}
          data={options}
          value={String(worker)}
          onChange={pick}
          style={{ alignSelf: 'flex-start' }}
        />
      ) : (
        <Select
          label={T.worker}
          data={options}
          value={String(worker)}
          onChange={pick}
          allowDeselect={false}
          searchable
          w={200}
        />
      )}
      <RunCommand key={worker} {...props} worker={worker} />
      <LogsTab key={`log-${worker}`} {...props} worker={worker} />
    </Stack>
  );
}

/** A command run in the worker while the job runs: needs write on the job, as exec does. */
function RunCommand(props: {
  job: Job;
  monitoringUrl: string;
  token: string | null;
  worker: number;
}) {
  const { job, worker } = props;
  const write = useCanOne({ uri: job.uri, action: 'write' });
  const running = job.status === 'running';
  const can = withRule(write, { enabled: running, why: running ? null : T.onlyRunning });
  const [cmd, setCmd] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CommandResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(
        await runInJob(props.monitoringUrl, job.id, {
          cmd,
          worker,
          token: props.token,
          failed: T.failed,
        }),
      );
    } catch (e) {
      // The socket's close reason is the server's message (runInJob).
      setError(e instanceof Error ? e.message : T.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label={T.command(worker)}
            description={T.commandHint}
            placeholder="nvidia-smi"
            value={cmd}
            onChange={(e) => setCmd(e.currentTarget.value)}
            disabled={!can.allowed}
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <WhyNot can={can}>
            <Button
              type="submit"
              leftSection={<IconTerminal2 size={16} />}
              loading={busy}
              disabled={!cmd.trim()}
            >
              {T.run}
            </Button>
          </WhyNot>
        </Group>
      </form>
      {error && (
        <Alert color="red" title={T.failed}>
          {error}
        </Alert>
      )}
      {result && (
        <Stack gap={4} role="region" aria-label={T.output}>
          <Code block>{result.output}</Code>
          <Text size="sm" c={result.exitCode === 0 ? 'dimmed' : 'red'}>
            {T.exitCode(result.exitCode)}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
