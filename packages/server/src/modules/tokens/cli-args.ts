// What the CLI parses and reports for `orrery tokens …`, apart from cli.ts so that the CLI loads
// the permission engine and the stores only for the command that runs them.
import { parseArgs } from 'node:util';

export const TOKENS_USAGE = `  tokens create --email E --project CLUSTER/ORG/PROJECT --name N [--role writer] [--ttl 30d]
                                         create a project token as the user with e-mail E (a
                                         project manager); prints the token only
  tokens list --email E --project C/O/P  list the project's tokens
  tokens revoke --email E --project C/O/P --name N
                                         revoke the project's live token named N
`;

export class CliError extends Error {}

/** What `orrery tokens …` was asked: parsed in the CLI, carried as JSON to a running server. */
export interface TokensArgs {
  action: string;
  email?: string;
  project?: string;
  name?: string;
  role?: string;
  ttl?: string;
}

export function parseTokensArgs(action: string | undefined, argv: string[]): TokensArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      project: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', default: 'writer' },
      ttl: { type: 'string', default: '30d' },
    },
  });
  return { action: action ?? '', ...values };
}
