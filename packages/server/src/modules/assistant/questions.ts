/**
 * How a question is read before anything is looked up, the same way by the knowledge (which
 * docs sections answer it) and the tools (which live facts it asks for).
 */

/**
 * A question about how to do something ("how do I run a job with a GPU?"): answered with the
 * console's path from the docs first, and it asks for no list of the user's resources.
 */
export const isHowTo = (question: string) =>
  /^\W*(?:how\s+(?:do|can|could|should|would|to)\b|what(?:'s| is) the way to\b|where\s+(?:do|can)\s+i\b)/.test(
    question.toLowerCase(),
  );

/**
 * Words that ask about the server's internals: its runtimes and drivers, how it is run and
 * configured, its tests and figures, or a command-line flag (`--gres`).
 */
const ASKS_INTERNALS =
  /\b(slurm|kubernetes|k8s|pods?|kubelet|drivers?|runtimes?|docker|bubblewrap|bwrap|sandbox(ed)?|operators?|administrators?|admins?|deploy(ment)?|install orrery|configur(e|ation)|environment variables?|orrery_\w+|database|postgres(ql)?|pglite|identity providers?|oidc|sso|health ?check|metrics endpoint|prometheus|replicas?|architecture|tests?|bench(mark)?|figures|performance|sbatch|srun|gres|cgroups?|nodes?|node pools?|smtp|stripe|webhooks?|tls|proxy|nginx|ingress controller)\b|(^|\s)--\w/i;

export const asksInternals = (question: string) => ASKS_INTERNALS.test(question);

/** Words that ask for the API or the command line rather than the console. */
const ASKS_CLIENT = /\b(api|cli|apolo|command line|curl|endpoint|sdk|script|programmatically)\b/i;

export const asksClient = (question: string) => ASKS_CLIENT.test(question);

/**
 * What a question quotes literally: a command-line flag (`--gres`) or text in backticks. A
 * passage that holds it answers before one that only shares its words.
 */
export function literalsOf(question: string): string[] {
  const flags = [...question.matchAll(/(?:^|\s)(--?[a-z][\w-]*)/gi)].map((m) => m[1]!);
  const quoted = [...question.matchAll(/`([^`]{2,})`/g)].map((m) => m[1]!);
  return [...new Set([...flags, ...quoted])];
}
