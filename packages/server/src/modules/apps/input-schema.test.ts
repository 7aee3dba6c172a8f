import { describe, expect, it } from 'vitest';
import { validateInput } from './input-schema.js';

/** The server's check of an app's input speaks as the console's form does. */
describe('validateInput: pattern messages', () => {
  const schema = {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        pattern: '^[a-z](?:-?[a-z0-9])*$',
        'x-pattern-name': 'lowercase letters, digits and single hyphens',
      },
      model: { type: 'string', pattern: '^storage:.+\\.gguf$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
      other: { type: 'string', pattern: '^a+b$' },
    },
  };

  it('names the pattern in words, or by the shared pattern messages, never in Ajv’s', () => {
    const errors = validateInput(schema, {
      name: 'My Job',
      model: 'storage:model.bin',
      count: 'ten',
      other: 'c',
    });
    expect(errors).toEqual([
      {
        path: ['name'],
        message:
          'Value does not match the required pattern: lowercase letters, digits and single hyphens',
      },
      { path: ['model'], message: 'Please enter a valid file name ending with: .gguf' },
      { path: ['count'], message: 'Only numbers are allowed.' },
      // Without a name, the fallback message shows the pattern itself.
      { path: ['other'], message: 'Value does not match the required pattern: ^a+b$' },
    ]);
  });
});
