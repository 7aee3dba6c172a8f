import { useEffect, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBriefcase, IconPlus } from '@tabler/icons-react';
import type { ProjectPlace } from '@orrery/contract';
import { useJobList, type Job } from '../../../api/jobs';
import { useCanCreateJob } from '../useCanCreateJob';
import { WhyNot } from '../../../ui/WhyNot';
import { ContextLink } from '../../../app/context/ContextLink';
import { useAccount } from '../../../app/session/account';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { KillJobDialog } from '../KillJobDialog';
import { JOBS_TEXTS, SEARCH_DEBOUNCE_MS } from '../texts';
import { JobsFilters } from './JobsFilters';
import { JobsTable } from './JobsTable';
import { useListParams } from './useListParams';
import { useSentinel } from './useSentinel';
import { NeedsProject } from '../../../app/context/project-place';

/** The Jobs list of the current project. */
export default function JobsListPage() {
  return (
    <NeedsProject title={JOBS_TEXTS.empty} description={JOBS_TEXTS.missingProject}>
      {(place) => <JobsList place={place} />}
    </NeedsProject>
  );
}

function JobsList({ place }: { place: ProjectPlace }) {
  const params = useListParams();
  const { user } = useAccount();
  const canCreate = useCanCreateJob(place);
  const [searchText, setSearchText] = useState(params.search);
  const [debounced] = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  const { setSearch } = params;
  useEffect(() => {
    if (debounced !== params.search) setSearch(debounced);
    // Only a settled keystroke writes the query string; the URL never overrides typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const jobs = useJobList(place, params.filter);
  const [killing, setKilling] = useState<Job | null>(null);
  const list = jobs.data?.pages.flatMap((p) => p.jobs) ?? [];
  const sentinel = useSentinel<HTMLDivElement>(
    () => {
      if (jobs.hasNextPage && !jobs.isFetchingNextPage) void jobs.fetchNextPage();
    },
    !!jobs.hasNextPage && !jobs.isFetchingNextPage,
    jobs.data?.pages.length ?? 0,
  );

  let body;
  if (jobs.isPending) body = <Loader aria-label={JOBS_TEXTS.title} />;
  else if (jobs.isError)
    body = <Alert color="red">{messageOf(jobs.error, JOBS_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<IconBriefcase size={24} />}
        title={JOBS_TEXTS.empty}
        description={JOBS_TEXTS.emptyHint}
      />
    );
  else
    body = (
      <>
        <JobsTable jobs={list} username={user.username} onKill={setKilling} onTag={params.addTag} />
        <div ref={sentinel} data-testid="jobs-sentinel" />
        {jobs.isFetchingNextPage && (
          <Center>
            <Loader size="sm" aria-label={JOBS_TEXTS.loadingMore} />
          </Center>
        )}
      </>
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{JOBS_TEXTS.title}</Title>
        <WhyNot can={canCreate}>
          <Button component={ContextLink} to="/jobs/new" leftSection={<IconPlus size={16} />}>
            {JOBS_TEXTS.create}
          </Button>
        </WhyNot>
      </Group>
      <JobsFilters params={params} searchText={searchText} onSearchText={setSearchText} />
      {body}
      <KillJobDialog job={killing} onClose={() => setKilling(null)} />
    </Stack>
  );
}
