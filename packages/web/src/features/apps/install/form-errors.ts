import { serverFieldErrors, type SchemaForm } from '../../../forms';
import { messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';
import { APPS_TEXTS } from '../texts';

/** The wire's field error paths are arrays of names; the form's are dotted. */
const toFormPath = (path: unknown) => (Array.isArray(path) ? path.join('.') : String(path));

/**
 * A refused install or configure: the server's field errors on the form's
 * inputs, else its message (or "Something went wrong") as a toast.
 */
export function showSubmitError(error: unknown, form: SchemaForm) {
  const onFields = serverFieldErrors(error, form.root, toFormPath);
  if (Object.keys(onFields).length > 0) form.setErrors(onFields);
  else notifyError(messageOf(error, APPS_TEXTS.somethingWentWrong));
}
