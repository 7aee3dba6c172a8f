import type { AppRunner } from '../runner.js';
import { orreryDeployRunner } from './orrery-deploy/runner.js';
import { DOCKER_ONLY_RUNNERS } from './docker-only/apps.js';
import { jobRunner } from './job/runner.js';
import { jupyterRunner } from './jupyter/runner.js';
import { llmInferenceRunner } from './llm-inference/runner.js';
import { postgresqlRunner } from './postgresql/runner.js';
import { shellRunner } from './shell/runner.js';
import { vscodeRunner } from './vscode/runner.js';

/** The runners of the built-in templates, by template name (a manifest's `runner`). */
export const BUILT_IN_RUNNERS: AppRunner[] = [
  jobRunner,
  orreryDeployRunner,
  shellRunner,
  jupyterRunner,
  postgresqlRunner,
  llmInferenceRunner,
  vscodeRunner,
  ...DOCKER_ONLY_RUNNERS,
];
