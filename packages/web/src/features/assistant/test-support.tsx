import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { COPILOT_TEXTS, type Citation, type CopilotAnswer, type Plan } from '@orrery/contract';
import { renderSignedIn } from '../../test/render';
import { world } from '../../test/fixtures';
import { ChatButton } from './ChatButton';

// jsdom has no FontFaceSet; Mantine's autosizing message box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

/**
 * A stand-in for the copilot server's WebSocket (the real one is the server's assistant module):
 * it records how the console opened it and what it sent, and lets a test play the server.
 */
export class CopilotSocketStandIn {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: CopilotSocketStandIn[] = [];
  readyState = CopilotSocketStandIn.CONNECTING;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    CopilotSocketStandIn.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  /** As a browser's: closing until the server's close frame comes (`drop`). */
  close() {
    if (this.readyState < CopilotSocketStandIn.CLOSING)
      this.readyState = CopilotSocketStandIn.CLOSING;
  }
  // What the server does, as the console sees it:
  open() {
    act(() => {
      this.readyState = CopilotSocketStandIn.OPEN;
      this.onopen?.();
    });
  }
  drop({ error = false } = {}) {
    act(() => {
      this.readyState = CopilotSocketStandIn.CLOSED;
      if (error) this.onerror?.();
      this.onclose?.();
    });
  }
  push(message: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }
  /** A progress frame in the server's own words (both engines send COPILOT_TEXTS.progress). */
  progress(iteration = 1, max = 3, added = 2) {
    this.push({
      type: 'progress',
      data: { iteration, max_iterations: max, message: COPILOT_TEXTS.progress(iteration, added) },
    });
  }
  respond(data: Partial<CopilotAnswer> = {}) {
    this.push({ type: 'response', data: { ...answer(), ...data } });
  }
  error(error: string) {
    this.push({ type: 'error', data: { error } });
  }
}

export const citation = (n: number, over: Partial<Citation> = {}): Citation => ({
  n,
  title: 'Jobs > The job page > Logs',
  url: '/docs/jobs.md#logs',
  snippet: 'The Logs tab follows the job output live.',
  ...over,
});

export const answer = (over: Partial<CopilotAnswer> = {}): CopilotAnswer => ({
  response: 'Open the job and choose the **Logs** tab [1].',
  citations: [citation(1)],
  mode: 'hybrid',
  iterations: 2,
  engine: 'embedded',
  plans: [],
  ...over,
});

export const plan = (over: Partial<Plan> = {}): Plan => ({
  id: 'plan-1',
  title: 'Kill job train-7',
  call: { method: 'DELETE', path: '/api/v1/jobs/job-7' },
  context: { cluster: 'default', org: 'acme', project: 'vision' },
  credits_per_hour: null,
  confirmation: 'once-abc',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  ...over,
});

export function stubCopilotSocket() {
  CopilotSocketStandIn.all = [];
  vi.stubGlobal('WebSocket', CopilotSocketStandIn);
  return {
    sockets: CopilotSocketStandIn.all,
    last: () => CopilotSocketStandIn.all.at(-1)!,
  };
}

/** The chat button in the top bar, signed in as alice in acme / default / vision. */
export function renderChat() {
  const { user, sessionConfig } = world();
  return renderSignedIn(<ChatButton />, {
    user,
    sessionConfig,
    route: '/?org=acme&cluster=default&project=vision',
  });
}
