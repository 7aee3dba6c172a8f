/**
 * The batch flows Orrery runs itself: the file read and checked, a bake planned, a task
 * evaluated into what its job runs, its cache key, and the commands of its log.
 */
export { BatchError } from './errors.js';
export { parseBatch } from './parse.js';
export type { BatchFlow, BatchParamDef, TaskDef } from './parse.js';
export { resolveParams } from './contexts.js';
export type { FlowContextInput, NeedResult } from './contexts.js';
export { planBake, planBakeInTurns } from './plan.js';
export { checkBakeSize, nextTurn, TASKS_PER_TURN } from './limits.js';
export type { BakeLimits } from './limits.js';
export type { BakePlan } from './plan.js';
export { evaluateTask, DEFAULT_CACHE_SECONDS } from './task.js';
export type { PlannedTask, TaskRun } from './task.js';
export type { TaskVolume } from './volumes.js';
export { parseLifeSpan } from './life-span.js';
export { cacheKey } from './cache-key.js';
export { parseTaskLog } from './task-log.js';
