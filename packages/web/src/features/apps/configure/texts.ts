/** The Configure page's words (the page's own). */
export const CONFIGURE_TEXTS = {
  button: 'Configure',
  title: (name: string) => `Configure ${name}`,
  hint: 'Only the settings marked as changeable after install can be edited; the others are shown as installed. Saving makes a new revision and restarts the app.',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'App configuration saved',
  nothingConfigurable: 'This app has no settings that can be changed after install',
  uninstalled: 'The app is uninstalled',
  back: 'Back to the app',
} as const;
