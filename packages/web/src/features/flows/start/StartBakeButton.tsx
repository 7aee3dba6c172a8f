import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { BakeWire, ProjectPlace } from '@orrery/contract';
import { useContextLink } from '../../../app/context/platform-context';

import { WhyNot } from '../../../ui/WhyNot';
import { graphLink, useFlowWrite } from '../rules';
import { START_TEXTS } from '../texts';
import { StartBakeDialog } from './StartBakeDialog';

/**
 * "Start bake" (an Orrery addition: bakes with no CLI). On the flows list the user names the flow;
 * on a flow's bakes it is that flow. A started bake opens its graph.
 */
export function StartBakeButton(props: { place: ProjectPlace; flowName?: string }) {
  const [opened, setOpened] = useState(false);
  const write = useFlowWrite();
  const navigate = useNavigate();
  const link = useContextLink();
  const started = (bake: BakeWire, flowName: string) =>
    navigate(link(graphLink({ id: bake.project_id, name: flowName }, bake)));
  return (
    <>
      <WhyNot can={write}>
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => setOpened(true)}>
          {START_TEXTS.action}
        </Button>
      </WhyNot>
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
