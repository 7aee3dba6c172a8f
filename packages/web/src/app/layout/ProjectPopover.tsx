import { Button, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconFolder, IconPlus } from '@tabler/icons-react';
import { isManagerRole } from '@orrery/contract';
import { ContextLink } from '../context/ContextLink';
import { usePlatformContext } from '../context/platform-context';
import { LAYOUT_TEXTS } from './texts';

export function ProjectPopover() {
  const { project, projects, select } = usePlatformContext();
  const others = projects.filter((p) => p.name !== project?.name);
  const name = project?.name ?? LAYOUT_TEXTS.noProject;
  return (
    <Menu position="bottom-start" width={240}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconFolder size={16} />}
          rightSection={<IconChevronDown size={14} />}
          aria-label={`${LAYOUT_TEXTS.project}: ${name}`}
        >
          <Stack gap={0} align="flex-start">
            <Text size="xs" c="dimmed" lh={1}>
              {LAYOUT_TEXTS.project}
            </Text>
            <Text size="sm" fw={500} lh={1.3}>
              {name}
            </Text>
          </Stack>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {project && isManagerRole(project.role) && (
          <Menu.Item component={ContextLink} to="/project-settings/general">
            {LAYOUT_TEXTS.settings}
          </Menu.Item>
        )}
        {project && (
          <Menu.Item component={ContextLink} to="/project-settings/users">
            {LAYOUT_TEXTS.people}
          </Menu.Item>
        )}
        {others.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Label>{LAYOUT_TEXTS.switchProject}</Menu.Label>
            {others.map((p) => (
              <Menu.Item key={p.name} onClick={() => select({ project: p.name })}>
                {p.name}
              </Menu.Item>
            ))}
          </>
        )}
        <Menu.Divider />
        <Menu.Item component={ContextLink} to="/new-project" leftSection={<IconPlus size={14} />}>
          {LAYOUT_TEXTS.createProject}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
