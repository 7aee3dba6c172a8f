import type { ProjectPlace } from '@orrery/contract';
import { useMemo } from 'react';
import { Button } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useAppTemplate, type AppInstance } from '../../../api/apps';
import { ContextLink } from '../../../app/context/ContextLink';
import { WhyNot } from '../../../ui/WhyNot';
import { useAppsWrite } from '../rules';
import { configurableKeys } from './configurable';
import { useConfigureCan } from './useConfigureBlock';
import { CONFIGURE_TEXTS as T } from './texts';

/**
 * Configure on the App details page: only when the template has inputs that may change after
 * install and the user may write in the project (other role gating is not shown);
 * disabled with the reason while the app is uninstalling or uninstalled.
 */
export function ConfigureButton({ app, place }: { app: AppInstance; place: ProjectPlace }) {
  const template = useAppTemplate(place, app.templateName, app.templateVersion);
  const write = useAppsWrite();
  const can = useConfigureCan(app);
  const configurable = useMemo(
    () => (template.data ? configurableKeys(template.data.input).length > 0 : false),
    [template.data],
  );
  if (!write.allowed || !configurable) return null;
  return (
    <WhyNot can={can}>
      <Button
        variant="default"
        leftSection={<IconSettings size={14} />}
        component={ContextLink}
        to={`/apps/instances/${encodeURIComponent(app.id)}/configure`}
      >
        {T.button}
      </Button>
    </WhyNot>
  );
}
