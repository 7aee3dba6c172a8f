import { BatchError } from './errors.js';
import type { BatchFlow } from './parse.js';

/**
 * How big one bake may be (ORRERY_FLOW_MAX_BAKE_TASKS, ORRERY_FLOW_MAX_MATRIX): a matrix of
 * four lists of ten makes 10,000 tasks, each a row, a job and a share of every engine pass.
 */
export interface BakeLimits {
  /** Tasks of one bake, matrices expanded. */
  maxTasks: number;
  /** Combinations of one task's matrix. */
  maxMatrix: number;
}

/**
 * Refuses a batch file whose bake would be too big, from the matrices' sizes alone: nothing is
 * expanded first (matrix values are literals, so the count is known once the file is read).
 */
export function checkBakeSize(flow: BatchFlow, limits: BakeLimits): void {
  let total = 0;
  for (const def of flow.tasks) {
    const combinations = def.matrix.reduce((n, axis) => n * axis.values.length, 1);
    if (combinations > limits.maxMatrix) {
      throw new BatchError(
        `the matrix of task \`${def.id.text}\` makes ${combinations} combinations: a matrix may make at most ${limits.maxMatrix}`,
        def.matrix[0]?.line ?? def.line,
      );
    }
    total += combinations;
  }
  if (total > limits.maxTasks) {
    throw new BatchError(
      `the bake would have ${total} tasks: a bake may have at most ${limits.maxTasks}`,
      null,
    );
  }
}

/** Tasks expanded or recorded between two turns of the event loop (other requests go first). */
export const TASKS_PER_TURN = 50;

/** Gives the event loop a turn: timers, sockets and other requests run before this goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
