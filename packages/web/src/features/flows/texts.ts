/**
 * Every text, limit and interval of the Flows area, in one place so
 * that pages and tests say the same thing.
 */
export const FLOW_TEXTS = {
  title: 'Flows',
  missingProject: 'Choose a project to see its flows.',
  loadFailed: 'Something went wrong',
  empty: 'No flows found',
  emptyHint: 'A flow appears here after its first bake, from the console or the apolo-flow CLI.',
  columns: { name: 'Name', tags: 'Tags', actions: 'Actions' },
  viewJobs: 'View real-time jobs',
  viewBakes: 'View bakes',
  delete: 'Delete',
  deleteLabel: (flow: string) => `Delete flow ${flow}`,
  deleteTitle: 'Delete flow',
  deleteText: (flow: string) =>
    `Delete the flow ${flow} with all its bakes? Its jobs keep running; this cannot be undone.`,
  deleted: (flow: string) => `Flow ${flow} deleted`,
  cancel: 'Cancel',
} as const;

export const BAKE_TEXTS = {
  title: (flow: string) => `Bakes of ${flow}`,
  back: 'Flows',
  empty: 'No bakes found',
  emptyHint: 'Start a bake here, or run apolo-flow bake in the flow’s folder.',
  columns: {
    bake: 'Bake',
    id: 'ID',
    executor: 'Executor ID',
    status: 'Status',
    tags: 'Tags',
    created: 'Created',
    actions: 'Kill',
  },
  noAttempt: 'no attempt',
  kill: 'Kill',
  killLabel: (bake: string) => `Kill bake ${bake}`,
  killTitle: 'Kill bake',
  killText: (bake: string) =>
    `Kill the bake ${bake}? Its running tasks stop and the attempt ends cancelled.`,
  killed: 'Bake killed',
  restart: 'Restart from failed',
  restartLabel: (bake: string) => `Restart bake ${bake} from its failed tasks`,
  restarted: 'Bake restarted',
  open: (bake: string) => `Open bake ${bake}`,
} as const;

export const START_TEXTS = {
  action: 'Start bake',
  title: 'Start bake',
  flowName: 'Flow name',
  flowNameHint: 'The flow the bake belongs to; it is created on its first bake.',
  flowNameRequired: 'Enter the flow’s name',
  source: 'Batch file',
  paste: 'Paste YAML',
  file: 'Project file',
  yaml: 'Batch YAML',
  yamlPlaceholder:
    'kind: batch\ntasks:\n  - id: first\n    image: busybox:latest\n    cmd: echo hello',
  yamlRequired: 'Paste a batch file',
  chooseFile: 'Choose file',
  noFile: 'No file chosen',
  fileRequired: 'Choose a batch file',
  next: 'Next',
  back: 'Back',
  batch: (batch: string, tasks: number) =>
    `Batch “${batch}”: ${tasks} ${tasks === 1 ? 'task' : 'tasks'}`,
  params: 'Params',
  noParams: 'This batch has no params.',
  paramRequired: (name: string) => `Give a value for ${name}`,
  name: 'Bake name',
  nameHint: 'Optional; unique in the flow.',
  start: 'Start',
  started: 'Bake started',
  cancel: 'Cancel',
} as const;

export const GRAPH_TEXTS = {
  title: (bake: string) => `Bake ${bake}`,
  back: 'Bakes',
  empty: 'No tasks found',
  emptyHint: 'This bake has no tasks.',
  notStarted: 'waiting',
  attempt: (n: number) => `Attempt ${n}`,
  region: 'Task graph',
  noSuchBake: 'No such bake',
  details: {
    title: (task: string) => `Task ${task}`,
    history: 'Status history',
    job: 'Job',
    cachedFrom: 'Cached from',
    outputs: 'Outputs',
    state: 'State',
    none: 'None',
    noJob: 'No job yet',
    log: 'Log',
    /** How the task's job ended, as the jobs API tells it. */
    ended: (exitCode: number | undefined, reason: string | undefined) =>
      [exitCode === undefined ? null : `Exit code ${exitCode}`, reason].filter(Boolean).join(': '),
    notStarted: 'This task has not started yet.',
  },
} as const;

/** The bake graph's zoom range and node size. */
export const GRAPH_ZOOM = { min: 0.01, max: 0.75 } as const;
export const NODE_SIZE = { width: 225, height: 84 } as const;

/**
 * A bake's graph is polled: a task's status changes once a second at most in
 * the engine, and a few seconds keeps a 1,000-task bake's polling cheap.
 */
export const BAKE_POLL_MS = 3_000;
