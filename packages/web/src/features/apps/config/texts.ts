/** Texts of Import/Export App Configuration, as users of Apolo's console know them. */
export const CONFIG_TEXTS = {
  importButton: 'Import App Configuration',
  exportButton: 'Export App Configuration',
  importTitle: 'Import App Configuration',
  importHint: 'One .yaml or .yml file exported from this template and version.',
  chooseFile: 'Choose file',
  dropHere: 'Drop the file here',
  apply: 'Apply',
  cancel: 'Cancel',
  loaded: (name: string) => `${name} is valid`,
  exportNeedsValidForm: 'Fill in the form correctly to export its configuration',
  // Errors of an imported file's content.
  invalidName: (expected: string, got: unknown) =>
    `Invalid template name: expected ${expected}, got ${String(got)}`,
  invalidVersion: (expected: string, got: unknown) =>
    `Invalid template version: expected ${expected}, got ${String(got)}`,
  noInput: 'YAML must contain "input" field',
  parseError: (message: string) => `Error parsing YAML: ${message}`,
  readError: 'Error reading file',
  noFile: 'No file selected',
  fileError: 'File Import App Configuration error',
  // The file errors shown under "File Import App Configuration error" (the file's limits).
  tooManyFiles: 'Only one file can be imported',
  wrongType: 'The file must be a .yaml or .yml file',
  tooLarge: (max: number) => `The file is larger than ${max} bytes`,
  notAMapping: 'The file must hold a YAML mapping',
  invalidInput: (path: string, message: string) =>
    `The input does not match the template: ${path ? `${path}: ` : ''}${message}`,
} as const;
