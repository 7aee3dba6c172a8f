import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Loader, SegmentedControl, Select, Stack, Text } from '@mantine/core';

import { useSecrets } from '../../api/secrets';
import { SecretForm } from './SecretForm';
import { useSecretsManage } from './scope';
import { SECRET_TEXTS } from './texts';

type Mode = 'existing' | 'new';

/**
 * Chooses an existing secret of the project or creates a new one; creation is
 * forced when the project has none. A created secret becomes the chosen one.
 */
export function SecretPicker({
  scope,
  value,
  onChange,
  label = SECRET_TEXTS.pickerLabel,
}: {
  scope: ProjectPlace;
  value: string | null;
  onChange: (key: string | null) => void;
  label?: string;
}) {
  const secrets = useSecrets(scope);
  const canManage = useSecretsManage().allowed;
  const [chosenMode, setMode] = useState<Mode>('existing');

  if (secrets.isPending) return <Loader size="sm" />;
  if (secrets.isError) return <Text c="red">{SECRET_TEXTS.somethingWentWrong}</Text>;
  const keys = secrets.data.map((s) => s.key);
  if (keys.length === 0 && !canManage)
    return <Text c="dimmed">{SECRET_TEXTS.pickerNoneReader}</Text>;
  const mode: Mode = keys.length === 0 ? 'new' : canManage ? chosenMode : 'existing';

  return (
    <Stack gap="sm">
      {keys.length > 0 && canManage && (
        <SegmentedControl
          value={mode}
          onChange={(m) => setMode(m as Mode)}
          data={[
            { value: 'existing', label: SECRET_TEXTS.pickExisting },
            { value: 'new', label: SECRET_TEXTS.pickNew },
          ]}
        />
      )}
      {mode === 'existing' ? (
        <Select
          label={label}
          placeholder={SECRET_TEXTS.pickerPlaceholder}
          data={keys}
          value={value && keys.includes(value) ? value : null}
          onChange={onChange}
          searchable
          required
        />
      ) : (
        <SecretForm
          scope={scope}
          onCreated={(key) => {
            onChange(key);
            setMode('existing');
          }}
        />
      )}
    </Stack>
  );
}
