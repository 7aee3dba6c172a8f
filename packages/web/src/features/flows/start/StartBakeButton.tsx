import { useState } from 'react';
import { Button, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { BakeWire } from '@orrery/contract';
import { useContextLink } from '../../../app/context/platform-context';
import type { FlowPlace } from '../api';
import { graphLink, useWriteBlocked } from '../rules';
import { START_TEXTS } from '../texts';
import { StartBakeDialog } from './StartBakeDialog';

/**
 * "Start bake" (beyond the spec: bakes with no CLI). On the flows list the user names the flow;
 * on a flow's bakes it is that flow. A started bake opens its graph.
 */
export function StartBakeButton(props: { place: FlowPlace; flowName?: string }) {
  const [opened, setOpened] = useState(false);
  const blocked = useWriteBlocked();
  const navigate = useNavigate();
  const link = useContextLink();
  const started = (bake: BakeWire, flowName: string) =>
    navigate(link(graphLink({ id: bake.project_id, name: flowName }, bake)));
  return (
    <>
      <Tooltip label={blocked} disabled={!blocked}>
        <Button
          leftSection={<IconPlayerPlay size={16} />}
          disabled={!!blocked}
          onClick={() => setOpened(true)}
        >
          {START_TEXTS.action}
        </Button>
      </Tooltip>
      {opened && (
        <StartBakeDialog
          place={props.place}
          flowName={props.flowName}
          onClose={() => setOpened(false)}
          onStarted={started}
        />
      )}
    </>
  );
}
