import type { AppRunner } from '../runner.js';
import { deployRunner } from './deploy/runner.js';
import { jobRunner } from './job/runner.js';

/** The built-in runners, by the template each serves (a manifest's `runner`). */
export const BUILT_IN_RUNNERS: AppRunner[] = [jobRunner, deployRunner];
