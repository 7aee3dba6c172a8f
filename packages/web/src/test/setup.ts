import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import { TOKEN_STORAGE } from '../app/session/oidc';

// findBy…, waitFor and vi.waitFor wait for what a user would see; their defaults (1 s) are
// shorter than a lazy chunk's first render takes on a loaded 2-core machine, and so was 5 s. A
// wait ends as soon as its condition holds: only a test that fails waits this long, so the limit
// is generous, and short of the test's own (vitest.config.ts).
const WAIT_MS = 30_000;
configure({ asyncUtilTimeout: WAIT_MS });
// Files share their worker (vitest.config.ts), so this file runs once for each of them: the
// wrapper keeps the original and wraps it, never a wrapper of an earlier file.
type WaitFor = typeof vi.waitFor & { original?: typeof vi.waitFor };
const waitFor = (vi.waitFor as WaitFor).original ?? vi.waitFor;
const patient: WaitFor = ((callback, options) =>
  waitFor(
    callback,
    typeof options === 'number' ? options : { timeout: WAIT_MS, ...options },
  )) as typeof vi.waitFor;
patient.original = waitFor;
vi.waitFor = patient;

// jsdom lacks the layout APIs Mantine relies on.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};

afterEach(() => {
  cleanup();
  // Mantine keeps its notifications in a store of the module's, which the next test (of this
  // file or of the next one in the worker) would otherwise show.
  notifications.clean();
  // A test that moved the page (a checkout's URL, a way back with a query) leaves it at the root.
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
  TOKEN_STORAGE.clear();
});
