import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { messageOf } from '../../../ui/errors';
import { withOutcome } from '../../../ui/notify';
import { useModelChoices, useModelSetting, useSaveModel } from './api';
import { MODEL_TEXTS as T } from './texts';
import '../styles';

const NONE = '';

/**
 * Which model composes the organization's assistant answers: one of its llm-inference apps, or
 * none (the server's configured model, else the built-in engine). Shown to its managers only;
 * the server says which apps they may choose and why a choice is refused.
 */
export function ModelSettingCard({ org }: { org: string }) {
  const setting = useModelSetting(org);
  const canManage = !!setting.data?.canManage;
  const choices = useModelChoices(org, canManage);
  const save = useSaveModel(org);
  const [chosen, setChosen] = useState<string>(NONE);
  const saved = setting.data?.appInstanceId ?? NONE;
  useEffect(() => setChosen(saved), [saved]);

  if (setting.isPending) return <Loader size="sm" aria-label={T.loading} />;
  if (setting.isError) {
    return <Alert color="red">{messageOf(setting.error, T.loadFailed)}</Alert>;
  }
  if (!canManage) return null;
  const apps = choices.data?.items ?? [];
  const options = [
    { value: NONE, label: T.none },
    ...apps.map((a) => ({ value: a.id, label: `${a.displayName} (${a.projectName}, ${a.state})` })),
  ];
  return (
    <Card withBorder maw={720}>
      <Stack gap="sm">
        <Title order={4}>{T.title}</Title>
        <Text size="sm">{T.source[setting.data.source]}</Text>
        {choices.isError && <Alert color="red">{messageOf(choices.error, T.loadFailed)}</Alert>}
        <Select
          label={T.label}
          data={options}
          value={chosen}
          onChange={(v) => setChosen(v ?? NONE)}
          allowDeselect={false}
          disabled={choices.isPending}
        />
        {choices.isSuccess && apps.length === 0 && (
          <Text size="sm" c="dimmed">
            {T.noApps}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            loading={save.isPending}
            disabled={chosen === saved}
            onClick={() =>
              void withOutcome(() => save.mutateAsync(chosen || null), T.saved, T.failed)
            }
          >
            {T.save}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
