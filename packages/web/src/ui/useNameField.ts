import { useCallback, useEffect, useRef, useState } from 'react';
import { normalizeName } from '@orrery/contract';
import { NAME_CHECK_DELAY_MS, validateName } from './names';
import type { NameMessages } from './names';

export type NameCheck = (name: string, signal?: AbortSignal) => Promise<boolean>;
type CheckResult = { name: string; scope: string; taken: boolean | null };

/**
 * A name input that validates as the user types, normalises the name, and asks the server
 * whether it is taken once typing pauses. `scope` names what the check depends on besides the
 * name (e.g. organization and cluster of a project).
 */
export function useNameField(messages: NameMessages, check: NameCheck, scope = '') {
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [result, setResult] = useState<CheckResult | null>(null);
  const checkRef = useRef(check);
  checkRef.current = check;

  const validation = validateName(value, messages);
  const normalized = validation ? null : normalizeName(value);

  useEffect(() => {
    if (!normalized) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkRef
        .current(normalized, controller.signal)
        .then((taken) => setResult({ name: normalized, scope, taken }))
        // An unanswered check does not block: creation reports a clash itself.
        .catch(
          () => !controller.signal.aborted && setResult({ name: normalized, scope, taken: null }),
        );
    }, NAME_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [normalized, scope]);

  const current = result && result.name === normalized && result.scope === scope ? result : null;
  const taken = current?.taken === true;

  /** Before sending: the answer for exactly this name, asking now if typing never paused. */
  const ensureAvailable = useCallback(async (): Promise<boolean> => {
    if (!normalized) return false;
    if (current) return current.taken !== true;
    const isTaken = await checkRef.current(normalized).catch(() => null);
    setResult({ name: normalized, scope, taken: isTaken });
    return isTaken !== true;
  }, [normalized, scope, current]);

  const error =
    (touched ? validation : null) ?? (taken ? messages.taken : null) ?? serverError ?? null;

  return {
    value,
    normalized,
    error,
    valid: !validation,
    checking: !!normalized && !current,
    touch: () => setTouched(true),
    setServerError,
    ensureAvailable,
    onChange: (next: string) => {
      setValue(next);
      setTouched(true);
      setServerError(null);
    },
  };
}
