import { z } from 'zod';

/**
 * The assistant: the copilot
 * WebSocket, its messages, and the plans it proposes for the user to confirm.
 */
export const COPILOT_WS_PATH = '/api/v1/copilot/ws';
/**
 * The sub-protocol the server selects on the copilot socket: a browser offering `bearer.<token>`
 * fails the handshake unless the server answers with one of the protocols it offered.
 */
export const COPILOT_WS_PROTOCOL = 'copilot.orrery';
export const COPILOT_MODES = ['hybrid', 'global', 'local', 'mix'] as const;
export const CopilotMode = z.enum(COPILOT_MODES);
export type CopilotMode = z.infer<typeof CopilotMode>;
export const COPILOT_DEFAULT_MODE: CopilotMode = 'hybrid';
export const COPILOT_MIN_ITERATIONS = 1;
export const COPILOT_MAX_ITERATIONS = 5;
export const COPILOT_DEFAULT_ITERATIONS = 3;
export const COPILOT_MAX_MESSAGE = 1000;
export const COPILOT_RECONNECT_MS = 15_000;
export const COPILOT_TEXTS = {
  tooLong: `A message may have at most ${COPILOT_MAX_MESSAGE} characters`,
  empty: 'The message is empty',
  iterations: `max_iterations must be ${COPILOT_MIN_ITERATIONS} to ${COPILOT_MAX_ITERATIONS}`,
  mode: `mode must be one of ${COPILOT_MODES.join(', ')}`,
  /**
   * A `progress` frame's message: what one iteration of retrieval added. Both engines (embedded
   * and model) send it, so the console reads the same line whichever answers.
   */
  progress: (iteration: number, added: number) =>
    `Iteration ${iteration}: ${added} new section${added === 1 ? '' : 's'} found`,
} as const;

export const ChatRole = z.enum(['user', 'assistant']);
export const HistoryItem = z.object({ role: ChatRole, content: z.string().max(20_000) });

/** Client → server: one question, with what was said before (used by a model, not retrieval). */
export const CopilotQuery = z.object({
  message: z
    .string()
    .trim()
    .min(1, COPILOT_TEXTS.empty)
    .max(COPILOT_MAX_MESSAGE, COPILOT_TEXTS.tooLong),
  conversation_history: z.array(HistoryItem).max(50).default([]),
  max_iterations: z
    .number({ error: COPILOT_TEXTS.iterations })
    .int(COPILOT_TEXTS.iterations)
    .min(COPILOT_MIN_ITERATIONS, COPILOT_TEXTS.iterations)
    .max(COPILOT_MAX_ITERATIONS, COPILOT_TEXTS.iterations)
    .default(COPILOT_DEFAULT_ITERATIONS),
  mode: z.enum(COPILOT_MODES, { error: COPILOT_TEXTS.mode }).default(COPILOT_DEFAULT_MODE),
  /** Where the user is in the console: live facts and plans default to this project. */
  context: z
    .object({ cluster: z.string(), org: z.string().nullish(), project: z.string().nullish() })
    .partial()
    .optional(),
});
export type CopilotQuery = z.infer<typeof CopilotQuery>;

/** A passage the answer rests on: a section of Orrery's docs, or a resource of the user's. */
export const Citation = z.object({
  n: z.number().int().min(1),
  title: z.string(),
  /** A console path: `/docs/jobs.md#the-job-page`, or a resource page such as `/jobs/job-…`. */
  url: z.string(),
  snippet: z.string(),
});
export type Citation = z.infer<typeof Citation>;

/** A change the assistant proposes; nothing happens until the user confirms it. */
export const Plan = z.object({
  id: z.string(),
  title: z.string(),
  /** The exact call that confirming makes, as the user would make it. */
  call: z.object({ method: z.string(), path: z.string(), body: z.unknown().optional() }),
  context: z.object({ cluster: z.string(), org: z.string(), project: z.string() }),
  /** Credits per hour the change starts spending, when it starts work. */
  credits_per_hour: z.string().nullable(),
  /** One-time confirmation bound to this plan and user. */
  confirmation: z.string(),
  expires_at: z.string(),
});
export type Plan = z.infer<typeof Plan>;

export const CopilotProgress = z.object({
  type: z.literal('progress'),
  data: z.object({
    iteration: z.number().int(),
    max_iterations: z.number().int(),
    message: z.string(),
  }),
});
export const CopilotResponse = z.object({
  type: z.literal('response'),
  data: z.object({
    /** Markdown; `[n]` markers refer to `citations`. */
    response: z.string(),
    citations: z.array(Citation),
    mode: CopilotMode,
    iterations: z.number().int(),
    engine: z.enum(['embedded', 'model']),
    /** Why the embedded engine answered when a model is configured (it failed, say). */
    notice: z.string().optional(),
    plans: z.array(Plan).default([]),
  }),
});
export const CopilotError = z.object({
  type: z.literal('error'),
  data: z.object({ error: z.string() }),
});
export const CopilotServerMessage = z.discriminatedUnion('type', [
  CopilotProgress,
  CopilotResponse,
  CopilotError,
]);
export type CopilotServerMessage = z.infer<typeof CopilotServerMessage>;
export type CopilotAnswer = z.infer<typeof CopilotResponse>['data'];

/** `POST /api/v1/copilot/plans/{id}/confirm`: the plan's one-time confirmation. */
export const PlanConfirm = z.object({ confirmation: z.string().min(1).max(200) });
export const PlanOutcome = z.object({
  status: z.enum(['done']),
  message: z.string(),
  /** Where to see the result in the console. */
  url: z.string().nullable(),
});
