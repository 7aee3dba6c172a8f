import { Menu, useMantineColorScheme } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { COLOR_SCHEME_TEXTS } from './color-scheme';

/** Light / Dark / System in the user menu; the current choice is ticked (and aria-current). */
export function ColorSchemeItems() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Label>{COLOR_SCHEME_TEXTS.label}</Menu.Label>
      {COLOR_SCHEME_TEXTS.choices.map((c) => (
        <Menu.Item
          key={c.value}
          // Mantine fixes the role to menuitem, which cannot be checked: the choice is "current".
          aria-current={colorScheme === c.value}
          closeMenuOnClick={false}
          leftSection={
            <IconCheck
              size={14}
              style={{ visibility: colorScheme === c.value ? 'visible' : 'hidden' }}
            />
          }
          onClick={() => setColorScheme(c.value)}
        >
          {c.label}
        </Menu.Item>
      ))}
    </>
  );
}
