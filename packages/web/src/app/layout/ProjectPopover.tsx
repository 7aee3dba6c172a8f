import { Menu } from '@mantine/core';
import { IconFolder, IconPlus } from '@tabler/icons-react';
import { useProjectManage } from '../../features/people/manages';
import { ContextLink } from '../context/ContextLink';
import { usePlatformContext } from '../context/platform-context';
import { LAYOUT_TEXTS } from './texts';
import { SwitcherButton } from './SwitcherButton';

export function ProjectPopover() {
  const { project, projects, select } = usePlatformContext();
  const others = projects.filter((p) => p.name !== project?.name);
  const name = project?.name ?? LAYOUT_TEXTS.noProject;
  // Settings is for the project's managers only.
  const manages = useProjectManage().allowed;
  return (
    <Menu position="bottom-start" width={240}>
      <Menu.Target>
        <SwitcherButton label={LAYOUT_TEXTS.project} value={name} icon={<IconFolder size={16} />} />
      </Menu.Target>
      <Menu.Dropdown>
        {project && manages && (
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
