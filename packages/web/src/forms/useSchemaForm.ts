import { useCallback, useMemo, useState } from 'react';
import type { InputSchema } from '@orrery/contract';
import { hasErrorUnder, validate, type FormErrors } from './rules';
import { buildNode, type FormNode } from './schema';
import { initialValue, setIn, type FormValue } from './values';

export interface SchemaForm {
  root: FormNode;
  values: FormValue;
  errors: FormErrors;
  setValue(path: string, value: FormValue): void;
  /** Replaces all errors, e.g. with the server's field errors. */
  setErrors(errors: FormErrors): void;
  /** Checks every rule, shows the errors and tells whether the form may be sent. */
  validate(): boolean;
}

/** The state of one schema-driven form: values, errors and the node tree they follow. */
export function useSchemaForm(schema: InputSchema): SchemaForm {
  const root = useMemo(() => buildNode(schema), [schema]);
  const [values, setValues] = useState<FormValue>(() => initialValue(root));
  const [errors, setErrors] = useState<FormErrors>({});

  const setValue = useCallback((path: string, value: FormValue) => {
    setValues((prev: FormValue) => setIn(prev, path, value));
    // An edited input drops its own error and those of the inputs it replaced.
    setErrors((prev) =>
      hasErrorUnder(prev, path)
        ? Object.fromEntries(
            Object.entries(prev).filter(([k]) => k !== path && !k.startsWith(`${path}.`)),
          )
        : prev,
    );
  }, []);

  const check = useCallback(() => {
    const found = validate(root, values);
    setErrors(found);
    return Object.keys(found).length === 0;
  }, [root, values]);

  return { root, values, errors, setValue, setErrors, validate: check };
}
