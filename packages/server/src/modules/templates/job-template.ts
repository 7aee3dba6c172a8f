import {
  DEFAULT_MAX_RUN_TIME_MINUTES,
  JOB_NAME,
  JOB_NAME_MAX,
  JOB_NAME_MIN,
  JOB_TEMPLATE,
  JobPriority,
  MAX_TAGS,
  RestartPolicy,
  type InputSchema,
  type TemplateWire,
} from '@orrery/contract';

/** Sections of the form (`x-group`). */
const GROUP = {
  general: 'General',
  command: 'Command',
  environment: 'Environment and volumes',
  limits: 'Limits and scheduling',
  advanced: 'Advanced',
} as const;

/**
 * The input of the built-in `job` template: one property per field of the `POST
 * /jobs?from_preset` body (apolo-wire §2), except env and volumes, which the console edits as
 * lists and splits into `env`/`secret_env` and `volumes`/`disk_volumes`/`secret_volumes` on send.
 * Special inputs are named by `x-type` (docs/forms.md).
 */
const input: InputSchema = {
  type: 'object',
  'x-title': 'Job',
  required: ['image', 'preset_name'],
  properties: {
    image: {
      'x-group': GROUP.general,
      type: 'string',
      title: 'Image',
      description: 'An image of this project, or any public one such as ubuntu:24.04.',
      'x-type': 'image',
    },
    preset_name: {
      'x-group': GROUP.general,
      type: 'string',
      title: 'Preset',
      description: 'CPU, memory and GPUs the job gets, and what it costs per hour.',
      'x-type': 'preset',
    },
    name: {
      'x-group': GROUP.general,
      type: 'string',
      title: 'Name',
      description: `Optional; ${JOB_NAME_MIN} to ${JOB_NAME_MAX} lowercase letters, digits and single hyphens.`,
      pattern: JOB_NAME.source,
      minLength: JOB_NAME_MIN,
      maxLength: JOB_NAME_MAX,
    },
    description: {
      'x-group': GROUP.general,
      type: 'string',
      title: 'Description',
      'x-type': 'textarea',
    },
    tags: {
      'x-group': GROUP.general,
      type: 'array',
      title: 'Tags',
      description: `Separated by commas; at most ${MAX_TAGS}.`,
      items: { type: 'string' },
      'x-type': 'tags',
    },
    command: {
      'x-group': GROUP.command,
      type: 'string',
      title: 'Command',
      description: 'One line, as in a shell.',
      'x-placeholder': 'python train.py --epochs 3',
    },
    entrypoint: {
      'x-group': GROUP.command,
      type: 'string',
      title: 'Entrypoint',
      description: "Overrides the image's.",
    },
    working_dir: {
      'x-group': GROUP.command,
      type: 'string',
      title: 'Working directory',
      description: 'An absolute path inside the job.',
      'x-placeholder': '/workspace',
    },
    http: {
      'x-group': GROUP.command,
      title: 'HTTP',
      description: 'Make a port of the job reachable at its HTTP URL.',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          title: 'HTTP',
          required: ['port'],
          properties: {
            port: { type: 'integer', title: 'Port', minimum: 1, maximum: 65535, default: 80 },
            requires_auth: {
              type: 'boolean',
              title: 'Requires authentication',
              default: true,
            },
          },
        },
      ],
    },
    env: {
      'x-group': GROUP.environment,
      type: 'array',
      title: 'Environment',
      'x-type': 'env',
      items: {
        type: 'object',
        required: ['name', 'value', 'type'],
        properties: {
          name: { type: 'string', title: 'Name' },
          value: { type: 'string', title: 'Value' },
          type: { type: 'string', enum: ['variable', 'secret'] },
        },
      },
    },
    volumes: {
      'x-group': GROUP.environment,
      type: 'array',
      title: 'Volumes',
      'x-type': 'volumes',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['storage', 'disk', 'secret'], default: 'storage' },
          name: { type: 'string' },
          resource: { type: 'string', title: 'Resource' },
          path: { type: 'string', title: 'Path' },
          mode: { type: 'string', enum: ['ro', 'rw'], default: 'ro' },
        },
      },
    },
    max_run_time_minutes: {
      'x-group': GROUP.limits,
      type: 'integer',
      title: 'Max run time, minutes',
      description: 'The job is killed when it runs longer.',
      minimum: 1,
      default: DEFAULT_MAX_RUN_TIME_MINUTES,
    },
    schedule_timeout: {
      'x-group': GROUP.limits,
      title: 'Schedule timeout',
      description: 'Fail the job when it cannot start within this many seconds.',
      anyOf: [{ type: 'null' }, { type: 'number', title: 'Seconds', minimum: 1 }],
    },
    restart_policy: {
      'x-group': GROUP.limits,
      type: 'string',
      title: 'Restart policy',
      enum: RestartPolicy.options,
      'x-enum-titles': ['Never', 'On failure', 'Always'],
      default: 'never',
    },
    priority: {
      'x-group': GROUP.limits,
      type: 'string',
      title: 'Priority',
      enum: JobPriority.options,
      'x-enum-titles': ['Low', 'Normal', 'High'],
      default: 'normal',
    },
    wait_for_jobs_quota: {
      'x-group': GROUP.limits,
      type: 'boolean',
      title: 'Wait for the running jobs quota',
      description: 'Stay pending instead of failing when the organization runs its maximum.',
      default: false,
    },
    resources: {
      'x-group': GROUP.advanced,
      type: 'object',
      title: 'Resources',
      properties: {
        shm: {
          type: 'boolean',
          title: 'Extended shared memory (/dev/shm)',
          description: 'Needed by data loaders that share tensors between processes.',
          default: false,
        },
      },
    },
    pass_config: {
      'x-group': GROUP.advanced,
      type: 'boolean',
      title: 'Pass platform configuration',
      description: 'Lets the job use the CLI as you.',
      default: false,
    },
    privileged: {
      'x-group': GROUP.advanced,
      type: 'boolean',
      title: 'Privileged',
      default: false,
    },
  },
};

export const jobTemplate: TemplateWire = {
  name: JOB_TEMPLATE,
  title: 'Job',
  version: '1.0.0',
  short_description: 'Run a command in an image with a resource preset.',
  tags: ['job'],
  description:
    'A job runs one command in a container image with the CPU, memory and GPUs of a preset, ' +
    'with files, disks and secrets mounted where it needs them.',
  input,
};
