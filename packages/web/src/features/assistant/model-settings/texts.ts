/** Texts of the organization's assistant model card (docs/assistant.md, With a model). */
export const MODEL_TEXTS = {
  title: 'Assistant model',
  source: {
    app: "The organization's llm-inference app below composes the assistant's answers.",
    endpoint:
      "The server's configured model composes the assistant's answers. Choose an llm-inference app to use your own.",
    embedded:
      "The built-in assistant answers from Orrery's docs alone. Choose an llm-inference app to have a model compose its answers.",
  },
  label: 'Model',
  none: 'None',
  noApps: 'No llm-inference app in the projects you can read: install one from Apps.',
  save: 'Save',
  saved: 'The assistant model is saved',
  failed: 'Could not save the assistant model',
  loadFailed: 'Could not read the assistant model',
  loading: 'Loading the assistant model',
} as const;
