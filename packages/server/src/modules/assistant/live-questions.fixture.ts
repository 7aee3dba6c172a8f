/**
 * Questions a newcomer asks the assistant in the console, each with what its answer must hold:
 * about the asker's own work (read live from a test server, live-questions.test.ts), how to do
 * something through the console, an operator's internals, and off-topic. What an answer must
 * contain is written against the `World` the test read back from the API after making it, never
 * against text the engine produces, so that an answer passes only when it names the live facts.
 */

/** A job as the jobs API shows it to its owner. */
export interface LiveJob {
  id: string;
  name: string;
  status: string;
  reason: string | null;
  description: string | null;
  http_url?: string;
}

/** The live work of the owner (organization acme, project vision), as the API answered it. */
export interface World {
  jobs: { webPort: LiveJob; trainer: LiveJob; broken: LiveJob; waiting: LiveJob };
  /** An instance whose job failed: the reason and message of its last event. */
  failedApp: { id: string; name: string; reason: string; message: string };
  /** A healthy instance and the URL Open leads to. */
  healthyApp: { id: string; name: string; url: string };
  bake: { id: string; name: string; result: string; url: string };
  disk: { id: string; name: string };
  /** The organization's credits, as the billing API shows them. */
  credits: string;
  presets: { name: string; gpu: boolean }[];
}

export type Expected = string | RegExp;

export interface LiveQuestion {
  question: string;
  asker: 'owner' | 'outsider';
  /** The project open in the console: the owner's acme/vision unless `none`. */
  context?: 'none';
  kind: 'own work' | 'how-to' | 'operator' | 'off-topic' | 'permissions';
  /** Facts and links the answer (its text or its citations' links) must hold. */
  must: (w: World) => Expected[];
  mustNot?: (w: World) => Expected[];
  /** Whether the answer must offer a plan (a change to confirm); none by default. */
  plan?: boolean;
}

const job = (id: string) => `/jobs/${id}`;
const app = (id: string) => `/apps/instances/${id}`;
/** The cluster's GPU presets by name, or the words that say it has none. */
const gpuPresets = (w: World): Expected[] => {
  const gpu = w.presets.filter((p) => p.gpu).map((p) => p.name);
  return gpu.length ? gpu : [/no (GPU presets?|presets? with (a )?GPU)/i];
};
/** Words of the Kubernetes and Slurm drivers, which a user's how-to must not be answered with. */
const INTERNALS: Expected[] = ['--gres', /\bPods?\b/, 'sbatch'];

export const LIVE_QUESTIONS: LiveQuestion[] = [
  // The asker's own work.
  {
    question: 'Which of my jobs are running?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [
      w.jobs.webPort.name,
      w.jobs.trainer.name,
      job(w.jobs.webPort.id),
      job(w.jobs.trainer.id),
    ],
    mustNot: (w) => [w.jobs.broken.id, /flow cache/i],
  },
  {
    question: 'Why is my job pending?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.jobs.waiting.name, w.jobs.waiting.description!, job(w.jobs.waiting.id)],
  },
  {
    question: 'Is my job web-port still running, what is its URL?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [/\brunning\b/, w.jobs.webPort.http_url!, job(w.jobs.webPort.id)],
    mustNot: () => [/credits?/i],
  },
  {
    question: 'Why did my job broken fail?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [/\bfailed\b/, w.jobs.broken.reason!, job(w.jobs.broken.id)],
  },
  {
    question: 'Why did my app my-shell fail?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [/errored/, w.failedApp.message, app(w.failedApp.id)],
    mustNot: () => [/Export/],
  },
  {
    question: 'What is the URL of my app term?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.healthyApp.url, app(w.healthyApp.id)],
  },
  {
    question: 'Which apps have I installed?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.failedApp.name, w.healthyApp.name, app(w.failedApp.id), app(w.healthyApp.id)],
  },
  {
    question: 'What bakes do I have?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.bake.name, w.bake.url],
  },
  {
    question: 'What is the status of my bake nightly?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.bake.name, w.bake.result, w.bake.url],
  },
  {
    question: 'Which disks do I have?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.disk.name, '/disks'],
  },
  {
    question: 'How many credits do I have left?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.credits, '/org-billing'],
  },
  {
    question: 'Which presets does this cluster have?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [...w.presets.map((p) => p.name), '/jobs/new'],
  },
  {
    question: 'Does this cluster have GPU presets?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [...gpuPresets(w), '/jobs/new'],
  },
  {
    question: 'Show me my failed jobs',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [w.jobs.broken.name, job(w.jobs.broken.id)],
    mustNot: (w) => [w.jobs.webPort.id, w.jobs.trainer.id],
  },
  {
    question: 'What is the status of job epoch-runner?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [/\brunning\b/, job(w.jobs.trainer.id)],
  },
  {
    question: 'Is my app term healthy?',
    asker: 'owner',
    kind: 'own work',
    must: (w) => [/\bhealthy\b/, app(w.healthyApp.id)],
  },
  {
    question: 'Show me the logs of job broken',
    asker: 'owner',
    kind: 'own work',
    must: (w) => ['no such program', `${job(w.jobs.broken.id)}/logs`],
  },
  // How to do something: the console's path first, the live facts that bear on it.
  {
    question: 'How do I run a job with a GPU?',
    asker: 'owner',
    kind: 'how-to',
    must: (w) => ['/jobs/new', /preset/i, ...gpuPresets(w)],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How do I create a project?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['/new-project', 'Create new project'],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How do I share a job with a teammate?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['Share', /job page|\/jobs\/<id>/],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How do I create a disk?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['Create new disk', '/disks'],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How can I see the logs of my job?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['Logs', '/jobs/<id>'],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How do I buy credits?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['Buy credits', '/org-billing'],
    mustNot: () => INTERNALS,
  },
  {
    question: 'How do I install Jupyter?',
    asker: 'owner',
    kind: 'how-to',
    must: () => ['Install', '/apps'],
    mustNot: () => INTERNALS,
  },
  // An operator's questions: the internals, since they are asked for.
  {
    question: 'How does the Slurm runtime request GPUs with --gres?',
    asker: 'owner',
    kind: 'operator',
    must: () => ['--gres', '/docs/runtimes.md'],
  },
  {
    question: 'How does the Kubernetes runtime run a job as a Pod?',
    asker: 'owner',
    kind: 'operator',
    must: () => [/\bPod\b/, '/docs/runtimes.md'],
  },
  {
    question: 'How does an administrator add a resource preset?',
    asker: 'owner',
    kind: 'operator',
    must: () => ['/docs/admin.md'],
  },
  // Off-topic: refused, with nothing of the asker's work.
  {
    question: 'What is the capital of France?',
    asker: 'owner',
    kind: 'off-topic',
    must: () => ['I could not find this in the documentation.'],
    mustNot: (w) => [w.jobs.webPort.name, '/jobs/'],
  },
  {
    question: 'Write me a poem about the sea',
    asker: 'owner',
    kind: 'off-topic',
    must: () => ['I could not find this in the documentation.'],
    mustNot: (w) => [w.jobs.webPort.name, '/jobs/'],
  },
  // Someone else's work: answered as if it did not exist.
  {
    question: 'Why did job broken fail?',
    asker: 'outsider',
    context: 'none',
    kind: 'permissions',
    must: () => [/not found/],
    mustNot: (w) => [w.jobs.broken.id, w.jobs.broken.reason!, '/jobs/'],
  },
];

/**
 * How many of the 30 must pass: 90 %. The embedded engine reads questions by rules, not by a
 * model, so a phrasing it has no rule for may still miss; more than three misses means a kind of
 * question (a resource, how-to, the operator's, off-topic) is answered wrongly, not one wording.
 */
export const LIVE_PASS_AT_LEAST = 27;
