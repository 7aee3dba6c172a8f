import { COPILOT_MAX_MESSAGE, type CopilotMode } from '@orrery/contract';
import type { ConnectionState } from './connection';

export const ASSISTANT_TEXTS = {
  open: 'Open assistant',
  openAnswering: 'Open assistant (an answer is on its way)',
  openUnread: 'Open assistant (a new answer)',
  title: 'Assistant',
  close: 'Close assistant',
  fullscreen: 'Fullscreen (Ctrl/Cmd+Shift+F)',
  leaveFullscreen: 'Leave fullscreen (Esc)',
  clear: 'Clear history',
  settings: 'Chat settings',
  mode: 'Mode',
  maxIterations: 'Max iterations',
  modeHelp: {
    hybrid: 'Specific terms and broad themes together (default)',
    global: 'Broad themes: headings and relations across pages',
    local: 'Specific terms: the things named in the question',
    mix: 'Hybrid plus a direct search of the sections',
  } satisfies Record<CopilotMode, string>,
  placeholder: 'Ask about Orrery or your work…',
  send: 'Send',
  resend: 'Resend',
  counter: (n: number) => `${n}/${COPILOT_MAX_MESSAGE}`,
  emptyIntro: 'Ask about this console, its docs, or your own jobs, apps and credits.',
  suggestions: [
    'How do I follow the logs of a job?',
    'What is charged when, and what happens when credits run out?',
    'How do I install an app?',
  ],
  failedToSend: 'Failed to send message',
  offline: 'You are currently offline',
  sending: 'Sending…',
  failed: 'Not answered',
  thinking: 'Thinking…',
  sources: 'Sources',
  /** An image in an answer, never loaded. */
  image: (alt: string) => `[image${alt ? `: ${alt}` : ''}]`,
  answeredBy: (engine: string, mode: string, iterations: number) =>
    `Answered by the ${engine === 'model' ? 'model' : 'embedded engine'} · ${mode} · ${iterations} ${iterations === 1 ? 'iteration' : 'iterations'}`,
  plan: {
    call: 'Call',
    context: 'Context',
    creditsPerHour: (c: string) => `${c} credits per hour`,
    noCost: 'Starts no credit spending',
    confirm: 'Confirm',
    dismiss: 'Dismiss',
    dismissed: 'Dismissed: nothing was changed.',
    expired: 'This plan has expired; ask again for a new one.',
    failed: 'The change could not be made',
    open: 'Open',
  },
};

/** How each connection state reads in the panel. */
export const CONNECTION_TEXTS: Record<ConnectionState, string> = {
  connecting: 'Connecting...',
  open: 'Connected',
  closing: 'Closing...',
  closed: 'Disconnected',
  error: 'Connection error',
};
