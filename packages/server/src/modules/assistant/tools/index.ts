import { HttpError } from '../../../http/errors.js';
import { createPlan } from '../plans.js';
import type { Asker, Fact, Tools } from '../types.js';
import {
  appStatusFact,
  creditsFact,
  jobLogsFact,
  jobStatusFact,
  myWaitingJobsFact,
  presetsFact,
  type FactDeps,
} from './facts.js';
import { changeIntent, factIntents, type FactIntent } from './intents.js';
import { bakesFact, disksFact, myAppsFact, myJobsFact } from './work.js';
import { proposeChange } from './proposals.js';

const factOf = (d: FactDeps, asker: Asker, i: FactIntent): Promise<Fact> => {
  switch (i.kind) {
    case 'credits':
      return creditsFact(d, asker);
    case 'presets':
      return presetsFact(d, asker, i.gpu === true);
    case 'my-jobs':
      return myJobsFact(d, asker, i.statuses);
    case 'my-apps':
      return myAppsFact(d, asker);
    case 'bakes':
      return bakesFact(d, asker, i.bake);
    case 'disks':
      return disksFact(d, asker);
    case 'job-status':
      return jobStatusFact(d, asker, i.job);
    case 'my-waiting-jobs':
      return myWaitingJobsFact(d, asker);
    case 'job-logs':
      return jobLogsFact(d, asker, i.job);
    case 'app-status':
      return appStatusFact(d, asker, i.app);
  }
};

/**
 * The live facts and plans of modules/assistant/types.ts. Facts are read with the asker's own
 * grants; a refusal (not found, no permission) is itself the fact, in the API's words. A plan is
 * stored for the asker and performed only by its confirmation (routes.ts); a change that
 * cannot be offered throws the HttpError that says why.
 */
export function createTools(deps: FactDeps): Tools {
  return {
    async facts(asker, question) {
      return Promise.all(
        factIntents(question).map((i) =>
          factOf(deps, asker, i).catch((e: unknown) => {
            if (e instanceof HttpError) return { text: e.message, citations: [] };
            throw e;
          }),
        ),
      );
    },
    async propose(asker, question) {
      const intent = changeIntent(question);
      if (!intent) return null;
      return createPlan(deps.db, asker.principal.id, await proposeChange(deps, asker, intent));
    },
  };
}
