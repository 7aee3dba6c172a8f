import { SECRETS_DEFAULT_CLUSTER } from '@orrery/contract';
import type { AppContext } from '../../../context.js';
import { placeUri } from '../../secrets/service.js';
import { unseal } from '../../secrets/key.js';
import { secretsIn } from '../../secrets/store.js';
import type { Asker } from '../types.js';
import { redactorOf, type Redact } from './material.js';

/**
 * The secret values an asker's material could carry: those of the project they are asking from
 * (a job's environment, echoed into its log, is the likely leak) and the configured model key.
 * They are replaced before anything reaches a model.
 */
export function redactionFor(ctx: AppContext, sealKey: Buffer) {
  return async (asker: Asker): Promise<Redact> => {
    const values = [ctx.config.assistantLlm?.apiKey ?? ''];
    const { org, project } = asker.context;
    // The CLI's default, as the secrets API reads a missing cluster.
    const cluster = asker.context.cluster ?? SECRETS_DEFAULT_CLUSTER;
    if (org && project) {
      const place = { cluster, org, project };
      for (const s of await secretsIn(ctx.db, place)) {
        try {
          values.push(unseal(sealKey, s.sealed, placeUri(place, s.key)).toString('utf8'));
        } catch {
          // A value sealed under another key cannot be read, and so cannot leak either.
        }
      }
    }
    return redactorOf(values);
  };
}
