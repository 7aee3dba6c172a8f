import { CONSOLE_NAME_CHARS, normalizeName } from '@orrery/contract';

export interface NameMessages {
  required: string;
  invalid: string;
  taken: string;
}

/** Pause after the last keystroke before asking the server whether a name is taken. */
export const NAME_CHECK_DELAY_MS = 500;

/** A name as typed in the console: required, not only whitespace; letters, digits, spaces, hyphens. */
export function validateName(raw: string, messages: NameMessages): string | null {
  if (!raw.trim()) return messages.required;
  if (!CONSOLE_NAME_CHARS.test(raw)) return messages.invalid;
  // "- -" passes the character rule but normalises to nothing.
  if (!normalizeName(raw)) return messages.invalid;
  return null;
}
