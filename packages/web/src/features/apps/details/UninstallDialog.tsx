import type { ProjectPlace } from '@orrery/contract';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useUninstallApp, type AppInstance } from '../../../api/apps';
import { useContextLink } from '../../../app/context/platform-context';
import { messageOf } from '../../../ui/errors';
import { notifyError, notifySuccess } from '../../../ui/notify';
import { appLabel } from '../rules';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.details;

/**
 * Uninstall asks first, naming the instances that use this one; on success it says
 * so and goes back to the installed list, replacing the instance's page in history.
 */
export function UninstallDialog(props: {
  place: ProjectPlace;
  app: AppInstance;
  opened: boolean;
  onClose(): void;
}) {
  const uninstall = useUninstallApp(props.place);
  const navigate = useNavigate();
  const link = useContextLink();
  const users = props.app.usedBy ?? [];
  const confirm = () =>
    uninstall.mutate(props.app.id, {
      onSuccess: () => {
        notifySuccess(T.uninstalled);
        navigate(link('/apps/installed'), { replace: true });
      },
      onError: (error) => notifyError(messageOf(error, APPS_TEXTS.somethingWentWrong)),
    });
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.confirmTitle} size={520}>
      <Stack gap="sm">
        <Text size="sm">{T.confirm(appLabel(props.app))}</Text>
        {users.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              {T.usedBy}
            </Text>
            <List size="sm">
              {users.map((u) => (
                <List.Item key={u.id}>{u.displayName || u.name}</List.Item>
              ))}
            </List>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {T.cancel}
          </Button>
          <Button color="red" loading={uninstall.isPending} onClick={confirm}>
            {T.uninstall}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
