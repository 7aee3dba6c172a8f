import type { SlurmClient } from './client.js';
import { CommandsClient } from './commands.js';
import type { SlurmOptions } from './options.js';
import { RestClient } from './rest.js';

/**
 * The client the settings name (`ORRERY_SLURM_API`): slurmrestd with `rest`, Slurm's commands
 * otherwise. The driver, the first start's node pools and the admin Nodes tab all ask Slurm
 * through one of these, so its answers are parsed in one place (client.ts).
 */
export function slurmClient(o: SlurmOptions): SlurmClient {
  return o.api === 'rest'
    ? new RestClient(o.restUrl!, o.jwtKeyFile!, o.user)
    : new CommandsClient(o.user, o.conf);
}
