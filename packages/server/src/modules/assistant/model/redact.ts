import { SECRETS_DEFAULT_CLUSTER } from '@orrery/contract';
import type { AppContext } from '../../../context.js';
import { placeUri } from '../../secrets/service.js';
import { unseal } from '../../secrets/key.js';
import { secretsIn } from '../../secrets/store.js';
import type { Asker, Fact, Place } from '../types.js';
import { redactorOf, type Redact } from './material.js';

/** The project open in the console, where a question's own words may quote its secrets. */
function openPlace(asker: Asker): Place | null {
  const { org, project } = asker.context;
  // The CLI's default, as the secrets API reads a missing cluster.
  return org && project
    ? { cluster: asker.context.cluster ?? SECRETS_DEFAULT_CLUSTER, org, project }
    : null;
}

/**
 * The secret values an asker's material could carry: those of the project they are asking from,
 * those of every project a fact was read from (a job found by id may be in another project the
 * user can read, and its environment, echoed into its log, is the likely leak), and the
 * configured model key. They are replaced before anything reaches a model.
 */
export function redactionFor(ctx: AppContext, sealKey: Buffer) {
  return async (asker: Asker, facts: Fact[]): Promise<Redact> => {
    const values = [ctx.config.assistantLlm?.apiKey ?? ''];
    const places = new Map<string, Place>();
    for (const p of [openPlace(asker), ...facts.map((f) => f.place)]) {
      if (p) places.set(`${p.cluster}/${p.org}/${p.project}`, p);
    }
    for (const place of places.values()) {
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
