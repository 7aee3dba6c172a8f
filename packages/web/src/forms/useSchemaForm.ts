import { useCallback, useMemo, useState } from 'react';
import { inlineRefs, type FormSchema } from './refs';
import { hasErrorUnder, validate, type FormErrors } from './rules';
import { buildNode, type FormNode } from './schema';
import { initialValue, setIn, type FormValue } from './values';
import { FORM_MESSAGES as M } from './texts';
import { notifyError } from '../ui/notify';

export interface SchemaForm {
  root: FormNode;
  values: FormValue;
  errors: FormErrors;
  /** Whether the values pass every rule now (Export needs it), without showing errors. */
  valid: boolean;
  /** Configure mode (an installed app): inputs with `x-is-configurable: false` are read-only. */
  configure: boolean;
  setValue(path: string, value: FormValue): void;
  /** Replaces every value, e.g. with an imported configuration; errors are cleared. */
  setValues(values: FormValue): void;
  /** Replaces all errors, e.g. with the server's field errors. */
  setErrors(errors: FormErrors): void;
  /** Checks every rule, shows the errors and tells whether the form may be sent. */
  validate(): boolean;
  /**
   * `validate` before a send: the toast "Please fill in all required fields" comes only when a
   * required input is empty; any other error (a pattern, a bound) speaks on its input alone.
   */
  checkToSend(): boolean;
}

export interface SchemaFormOptions {
  /** Starting values instead of the schema's defaults (the current input when configuring). */
  initial?: FormValue;
  configure?: boolean;
}

/** The node tree of a schema in either vocabulary (docs/forms.md); throws on a bad `$ref`. */
export const schemaRoot = (schema: FormSchema): FormNode => buildNode(inlineRefs(schema));

/** The state of one schema-driven form: values, errors and the node tree they follow. */
export function useSchemaForm(schema: FormSchema, options: SchemaFormOptions = {}): SchemaForm {
  const root = useMemo(() => schemaRoot(schema), [schema]);
  const [values, setAll] = useState<FormValue>(() => options.initial ?? initialValue(root));
  const [errors, setErrors] = useState<FormErrors>({});

  const setValue = useCallback((path: string, value: FormValue) => {
    setAll((prev: FormValue) => setIn(prev, path, value));
    // An edited input drops its own error and those of the inputs it replaced.
    setErrors((prev) =>
      hasErrorUnder(prev, path)
        ? Object.fromEntries(
            Object.entries(prev).filter(([k]) => k !== path && !k.startsWith(`${path}.`)),
          )
        : prev,
    );
  }, []);

  const setValues = useCallback((next: FormValue) => {
    setAll(next);
    setErrors({});
  }, []);

  const valid = useMemo(() => Object.keys(validate(root, values)).length === 0, [root, values]);

  const check = useCallback(() => {
    const found = validate(root, values);
    setErrors(found);
    return found;
  }, [root, values]);
  const validateAll = useCallback(() => Object.keys(check()).length === 0, [check]);
  const checkToSend = useCallback(() => {
    const found = check();
    if (Object.values(found).includes(M.required)) notifyError(M.fillRequired);
    return Object.keys(found).length === 0;
  }, [check]);

  return {
    root,
    values,
    errors,
    valid,
    configure: options.configure === true,
    setValue,
    setValues,
    setErrors,
    validate: validateAll,
    checkToSend,
  };
}
