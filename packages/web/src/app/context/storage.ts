import type { ContextChoice } from './resolve';

export const CONTEXT_STORAGE_KEY = 'orrery.context';

export function loadSavedContext(): ContextChoice {
  try {
    const raw = window.localStorage.getItem(CONTEXT_STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as unknown) : null;
    if (!value || typeof value !== 'object') return {};
    const { org, cluster, project } = value as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return { org: str(org), cluster: str(cluster), project: str(project) };
  } catch {
    return {};
  }
}

export function saveContext(choice: ContextChoice) {
  try {
    window.localStorage.setItem(CONTEXT_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Private mode or a full quota: the choice still lives in the query parameters.
  }
}
