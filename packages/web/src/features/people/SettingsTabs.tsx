import type { ReactNode } from 'react';
import { Stack, Tabs, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useContextLink } from '../../app/context/platform-context';

export interface SettingsTab {
  value: string;
  label: string;
  render: () => ReactNode;
}

/**
 * A settings page with its tabs in the path (`/org-settings/users`); the tab links keep the
 * context. A tab the user may not see, or none, leads to the first one they may.
 */
export function SettingsTabs({
  base,
  title,
  tabs,
}: {
  base: string;
  title: string;
  tabs: SettingsTab[];
}) {
  const { tab } = useParams();
  const navigate = useNavigate();
  const link = useContextLink();
  const current = tabs.find((t) => t.value === tab);
  if (!current) return <Navigate to={link(`${base}/${tabs[0].value}`)} replace />;
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      <Tabs value={current.value} onChange={(v) => v && navigate(link(`${base}/${v}`))}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {current.render()}
    </Stack>
  );
}
