/**
 * The messages of a schema's `pattern`, shared by the console's
 * form engine and the server's check of an app's input, so both say the same. A template may
 * name its pattern in words with `x-pattern-name`: the fallback message then shows that name
 * instead of the regular expression itself.
 */
export const PATTERN_MESSAGES = {
  fileExtension: (extensions: string) =>
    `Please enter a valid file name ending with: ${extensions}`,
  digits: 'Only numbers are allowed.',
  letters: 'Only letters are allowed.',
  lettersAndDigits: 'Only letters and numbers are allowed.',
  pattern: (pattern: string) => `Value does not match the required pattern: ${pattern}`,
} as const;

const DIGITS = /^\^?\[?(\\d|0-9)\]?[+*]\$?$/;
const LETTERS = /^\^?\[(a-zA-Z|A-Za-z|a-z|A-Z)\][+*]\$?$/;
const MIXED = /^\^?\[(a-zA-Z0-9|A-Za-z0-9|a-z0-9|A-Z0-9|0-9a-zA-Z|0-9A-Za-z|\\w)\][+*]\$?$/;
/** `…\.yaml$` or `…\.(yaml|yml)$`: a file-name pattern, named by its extensions. */
const EXTENSIONS = /\\\.\(?([A-Za-z0-9|]+)\)?\$$/;

/** The message of a pattern, by what the pattern allows; `name` is the schema's `x-pattern-name`. */
export function patternMessage(pattern: string, name?: unknown): string {
  const M = PATTERN_MESSAGES;
  const ext = EXTENSIONS.exec(pattern);
  if (ext)
    return M.fileExtension(
      ext[1]
        .split('|')
        .map((e) => `.${e}`)
        .join(', '),
    );
  if (DIGITS.test(pattern)) return M.digits;
  if (LETTERS.test(pattern)) return M.letters;
  if (MIXED.test(pattern)) return M.lettersAndDigits;
  return M.pattern(typeof name === 'string' && name.trim() ? name.trim() : pattern);
}
