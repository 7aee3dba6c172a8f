import { localStorageColorSchemeManager } from '@mantine/core';
import type { MantineColorScheme } from '@mantine/core';

/** The key under which the browser keeps the chosen scheme (light, dark or auto). */
export const COLOR_SCHEME_KEY = 'orrery-color-scheme';

/**
 * Kept in the browser, not the account: a laptop at night and a desktop by day may want different
 * schemes. Nothing stored means "auto", which follows the system.
 */
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
export const DEFAULT_COLOR_SCHEME: MantineColorScheme = 'auto';

export const COLOR_SCHEME_TEXTS = {
  label: 'Theme',
  choices: [
    { value: 'light', label: 'Light' },
    { value: 'dark', label: 'Dark' },
    { value: 'auto', label: 'System' },
  ] satisfies { value: MantineColorScheme; label: string }[],
};
