import {
  COPILOT_DEFAULT_ITERATIONS,
  COPILOT_DEFAULT_MODE,
  COPILOT_MAX_ITERATIONS,
  COPILOT_MIN_ITERATIONS,
  CopilotMode,
} from '@orrery/contract';
import { useCallback, useState } from 'react';

/** Copilot settings, kept in the browser with the console's other values (`orrery.*`). */
export interface CopilotSettings {
  mode: CopilotMode;
  maxIterations: number;
}

export const SETTINGS_STORAGE_KEY = 'orrery.assistant.settings';
export const DEFAULT_SETTINGS: CopilotSettings = {
  mode: COPILOT_DEFAULT_MODE,
  maxIterations: COPILOT_DEFAULT_ITERATIONS,
};

const validIterations = (n: unknown): n is number =>
  Number.isInteger(n) &&
  (n as number) >= COPILOT_MIN_ITERATIONS &&
  (n as number) <= COPILOT_MAX_ITERATIONS;

/** A stored value edited by hand or left by an older console falls back field by field. */
export function loadSettings(): CopilotSettings {
  try {
    const raw = window.localStorage.getItem(SETTINGS_STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const mode = CopilotMode.safeParse(value?.mode);
    return {
      mode: mode.success ? mode.data : DEFAULT_SETTINGS.mode,
      maxIterations: validIterations(value?.maxIterations)
        ? value.maxIterations
        : DEFAULT_SETTINGS.maxIterations,
    };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export function saveSettings(settings: CopilotSettings) {
  try {
    window.localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or a full quota: the settings still hold for this page session.
  }
}

export function useCopilotSettings() {
  const [settings, setSettings] = useState(loadSettings);
  const update = useCallback((change: Partial<CopilotSettings>) => {
    setSettings((prev) => {
      const next = { ...prev, ...change };
      saveSettings(next);
      return next;
    });
  }, []);
  return [settings, update] as const;
}
