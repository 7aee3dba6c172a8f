import { useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Title } from '@mantine/core';
import { IconDatabase, IconPlus } from '@tabler/icons-react';
import { diskUri, type ProjectPlace } from '@orrery/contract';
import { useDisks, type Disk } from '../../api/disks';
import { useCanOne } from '../../api/permissions';
import { WhyNot } from '../../ui/WhyNot';
import { usePlatformContext } from '../../app/context/platform-context';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { CreateDiskDialog } from './CreateDiskDialog';
import { DeleteDiskDialog } from './DeleteDiskDialog';
import { DiskDrawer } from './DiskDrawer';
import { DisksTable } from './DisksTable';
import { DISK_TEXTS } from './texts';
import { NeedsProject } from '../../app/context/project-place';

/** The Disks area: the current project's disks. */
export default function DisksPage() {
  const { cluster } = usePlatformContext();
  return (
    <NeedsProject title={DISK_TEXTS.empty} description={DISK_TEXTS.missingProject}>
      {(place) => (
        <Disks place={place} pricePerGbDay={cluster?.details?.diskPrice?.creditsPerDayPerGb} />
      )}
    </NeedsProject>
  );
}

function Disks({ place, pricePerGbDay }: { place: ProjectPlace; pricePerGbDay?: string }) {
  const disks = useDisks(place);
  const canCreate = useCanOne({
    uri: diskUri(place.clusterName, place.orgName, place.projectName),
    action: 'write',
  });
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Disk | null>(null);
  const list = disks.data ?? [];
  // The drawer follows the list, so a refetch shows fresh usage and a deleted disk closes it.
  const open = list.find((d) => d.id === openId) ?? null;

  let body;
  if (disks.isPending) body = <Loader aria-label={DISK_TEXTS.title} />;
  else if (disks.isError)
    body = <Alert color="red">{messageOf(disks.error, DISK_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<IconDatabase size={24} />}
        title={DISK_TEXTS.empty}
        description={DISK_TEXTS.emptyHint}
      />
    );
  else
    body = (
      <DisksTable
        disks={list}
        pricePerGbDay={pricePerGbDay}
        selected={openId}
        onOpen={(d) => setOpenId(d.id)}
        onDelete={setDeleting}
      />
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{DISK_TEXTS.title}</Title>
        <WhyNot can={canCreate}>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {DISK_TEXTS.create}
          </Button>
        </WhyNot>
      </Group>
      {body}
      <DiskDrawer disk={open} onClose={() => setOpenId(null)} />
      <CreateDiskDialog
        place={place}
        pricePerGbDay={pricePerGbDay}
        opened={creating}
        onClose={() => setCreating(false)}
      />
      <DeleteDiskDialog place={place} disk={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
