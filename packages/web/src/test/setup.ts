import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { TOKEN_STORAGE } from '../app/session/oidc';

// findBy… and waitFor wait for what a user would see; the default 1 s is shorter than a lazy
// chunk's first render takes on a loaded 2-core CI machine. Waiting longer changes no verdict.
configure({ asyncUtilTimeout: 5000 });

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
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
  TOKEN_STORAGE.clear();
});
