import type { AppInputError, ErrorBody } from '@orrery/contract';
import { HttpError } from '../../http/errors.js';

/**
 * A 400 on an app's input: `errors` carry paths as arrays of strings, which the CLI prints one
 * line per error (as the apps API of Apolo answers), rather than the dotted paths of the other APIs.
 */
export class InputErrors extends HttpError {
  constructor(readonly inputErrors: AppInputError[]) {
    const first = inputErrors[0];
    super(
      'validation',
      first
        ? `${first.path.length ? `${first.path.join('.')}: ` : ''}${first.message}`
        : 'Invalid input',
    );
  }
  override body(): ErrorBody {
    return {
      error: this.code,
      message: this.message,
      errors: this.inputErrors,
    } as unknown as ErrorBody;
  }
}

export const inputError = (path: string[], message: string) => new InputErrors([{ path, message }]);
