import { useMemo } from 'react';
import { Button, Tooltip } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useAppTemplate, type AppInstance, type AppsPlace } from '../../../api/apps';
import { ContextLink } from '../../../app/context/ContextLink';
import { useAppsWriteBlock } from '../rules';
import { configurableKeys } from './configurable';
import { stateBlock } from './useConfigureBlock';
import { CONFIGURE_TEXTS as T } from './texts';

/**
 * Configure on the App details page: only when the template has inputs that may change after
 * install and the user may write in the project; disabled with the reason while the app is
 * uninstalling or uninstalled.
 */
export function ConfigureButton({ app, place }: { app: AppInstance; place: AppsPlace }) {
  const template = useAppTemplate(place, app.templateName, app.templateVersion);
  const writeBlock = useAppsWriteBlock();
  const configurable = useMemo(
    () => (template.data ? configurableKeys(template.data.input).length > 0 : false),
    [template.data],
  );
  if (writeBlock || !configurable) return null;
  const block = stateBlock(app);
  const icon = <IconSettings size={14} />;
  if (!block)
    return (
      <Button
        variant="default"
        leftSection={icon}
        component={ContextLink}
        to={`/apps/instances/${encodeURIComponent(app.id)}/configure`}
      >
        {T.button}
      </Button>
    );
  return (
    // A disabled button takes no hover; the span shows the reason.
    <Tooltip label={block}>
      <span>
        <Button variant="default" leftSection={icon} disabled>
          {T.button}
        </Button>
      </span>
    </Tooltip>
  );
}
