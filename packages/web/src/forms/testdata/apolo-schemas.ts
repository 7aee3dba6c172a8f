import type { FormSchema } from '../refs';

/**
 * Input schemas written the way Apolo's generator writes them (pydantic JSON Schema with the
 * hints of `schema_extra.py`), with the shapes docs/forms.md lists: `$defs` + `$ref`,
 * `anyOf [X, {type: null}]` for optionals, object defaults carrying `__type__`, class names in
 * `x-type`. Test fixtures: the real templates are part of the apps module.
 */
const hints = (
  xType: string,
  title: string,
  description = '',
  extra: Partial<FormSchema> = {},
): Partial<FormSchema> => ({
  'x-type': xType,
  'x-title': title,
  'x-description': description,
  'x-meta-type': 'inline',
  'x-is-advanced-field': false,
  'x-is-configurable': true,
  ...extra,
});
const ref = (name: string, extra: Partial<FormSchema> = {}): FormSchema => ({
  $ref: `#/$defs/${name}`,
  ...extra,
});
const optional = (name: string, extra: Partial<FormSchema> = {}): FormSchema => ({
  anyOf: [ref(name), { type: 'null' }],
  default: null,
  ...extra,
});
const literal = (value: string): FormSchema => ({
  const: value,
  default: value,
  title: 'Type',
  type: 'string',
});

const COMMON_DEFS: Record<string, FormSchema> = {
  Preset: {
    type: 'object',
    title: 'Preset',
    properties: { name: { type: 'string', title: 'Name' } },
    required: ['name'],
    ...hints('Preset', 'Resource Preset', 'Select the resource preset used per service replica.'),
  },
  ApoloAuth: {
    type: 'object',
    title: 'ApoloAuth',
    properties: { type: literal('apolo_auth') },
    ...hints(
      'ApoloAuth',
      'Platform Authentication',
      'Sign in with the platform and its permissions.',
    ),
  },
  NoAuth: {
    type: 'object',
    title: 'NoAuth',
    properties: { type: literal('no_auth') },
    ...hints('NoAuth', 'No Authentication', 'Anyone with the address can use the app.'),
  },
  IngressHttp: {
    type: 'object',
    title: 'IngressHttp',
    properties: {
      auth: {
        anyOf: [ref('ApoloAuth'), ref('NoAuth')],
        default: { type: 'apolo_auth', __type__: 'ApoloAuth' },
        title: 'Auth',
        'x-title': 'Authentication',
      },
    },
    ...hints('IngressHttp', 'HTTP Ingress', 'Enable access to your application over HTTP.'),
  },
  BasicNetworkingConfig: {
    type: 'object',
    title: 'BasicNetworkingConfig',
    properties: {
      ingress_http: ref('IngressHttp', {
        default: { auth: { type: 'apolo_auth', __type__: 'ApoloAuth' }, __type__: 'IngressHttp' },
      }),
    },
    ...hints(
      'BasicNetworkingConfig',
      'Networking Settings',
      'Configure network access, HTTP authentication, and related connectivity options.',
    ),
  },
  ApoloFilesPath: {
    type: 'object',
    title: 'ApoloFilesPath',
    properties: { path: { type: 'string', title: 'Path' } },
    required: ['path'],
    ...hints('ApoloFilesPath', 'Platform Storage Path', 'Path in the platform storage.'),
  },
  MountPath: {
    type: 'object',
    title: 'MountPath',
    properties: { path: { type: 'string', title: 'Path' } },
    required: ['path'],
    ...hints('MountPath', 'Mount Path', 'Absolute path inside the container.'),
  },
  ApoloMountMode: {
    type: 'object',
    title: 'ApoloMountMode',
    properties: { mode: { enum: ['r', 'rw'], default: 'rw', title: 'Mode', type: 'string' } },
    ...hints('ApoloMountMode', 'Mount Mode', 'Read only (r) or read and write (rw).'),
  },
  ApoloFilesMount: {
    type: 'object',
    title: 'ApoloFilesMount',
    properties: {
      storage_uri: ref('ApoloFilesPath'),
      mount_path: ref('MountPath'),
      mode: ref('ApoloMountMode', { default: { mode: 'rw', __type__: 'ApoloMountMode' } }),
    },
    required: ['storage_uri', 'mount_path'],
    ...hints('ApoloFilesMount', 'Storage Mount', 'Mount a storage folder into the app.'),
  },
  StorageMounts: {
    type: 'object',
    title: 'StorageMounts',
    properties: {
      mounts: { type: 'array', items: ref('ApoloFilesMount'), title: 'Mounts', default: [] },
    },
    ...hints('StorageMounts', 'Storage Mounts', 'Mount additional storage paths.'),
  },
  ApoloSecret: {
    type: 'object',
    title: 'ApoloSecret',
    properties: { key: { type: 'string', title: 'Key' } },
    required: ['key'],
    ...hints('ApoloSecret', 'Secret', 'A secret of the project.'),
  },
  Env: {
    type: 'object',
    title: 'Env',
    properties: {
      name: { type: 'string', title: 'Name' },
      value: { anyOf: [{ type: 'string' }, ref('ApoloSecret')], default: '', title: 'Value' },
    },
    required: ['name'],
    ...hints('Env', 'Environment Variable', 'An environment variable of the container.'),
  },
  ContainerImage: {
    type: 'object',
    title: 'ContainerImage',
    properties: {
      repository: { type: 'string', title: 'Repository' },
      tag: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Tag' },
    },
    required: ['repository'],
    ...hints('ContainerImage', 'Container Image', 'The image the app runs.'),
  },
  RestAPI: {
    type: 'object',
    title: 'RestAPI',
    properties: {
      host: { type: 'string', title: 'Host' },
      port: { type: 'integer', default: 80, title: 'Port' },
      protocol: { type: 'string', default: 'http', title: 'Protocol' },
      base_path: { type: 'string', default: '/', title: 'Base Path' },
    },
    required: ['host'],
    ...hints('RestAPI', 'REST API', 'An HTTP API.'),
  },
  MLFlowTrackingServerURL: {
    type: 'object',
    title: 'MLFlowTrackingServerURL',
    properties: {
      internal_url: optional('RestAPI', { 'x-title': 'Internal URL' }),
      external_url: optional('RestAPI', { 'x-title': 'External URL' }),
    },
    ...hints('MLFlowTrackingServerURL', 'MLFlow Server URL', 'The MLFlow tracking server.', {
      'x-meta-type': 'integration',
    }),
  },
};

export const SHELL_SCHEMA: FormSchema = {
  type: 'object',
  title: 'ShellAppInputs',
  $defs: COMMON_DEFS,
  properties: {
    preset: ref('Preset'),
    networking: ref('BasicNetworkingConfig', {
      default: {
        ingress_http: {
          auth: { type: 'apolo_auth', __type__: 'ApoloAuth' },
          __type__: 'IngressHttp',
        },
        __type__: 'BasicNetworkingConfig',
      },
    }),
  },
  required: ['preset'],
};

export const JUPYTER_SCHEMA: FormSchema = {
  type: 'object',
  title: 'JupyterAppInputs',
  $defs: {
    ...COMMON_DEFS,
    DefaultContainer: {
      type: 'object',
      title: 'DefaultContainer',
      properties: {
        container_image: {
          enum: ['ghcr.io/neuro-inc/base:v25.3.0-runtime'],
          default: 'ghcr.io/neuro-inc/base:v25.3.0-runtime',
          title: 'Container Image',
          type: 'string',
        },
      },
      ...hints('DefaultContainer', 'Default Container', 'The platform base image.'),
    },
    CustomImage: {
      type: 'object',
      title: 'CustomImage',
      properties: { container_image: ref('ContainerImage') },
      required: ['container_image'],
      ...hints('CustomImage', 'Custom Image', 'An image of your own.'),
    },
    JupyterSpecificAppInputs: {
      type: 'object',
      title: 'JupyterSpecificAppInputs',
      properties: {
        container_settings: {
          anyOf: [ref('DefaultContainer'), ref('CustomImage')],
          default: {
            container_image: 'ghcr.io/neuro-inc/base:v25.3.0-runtime',
            __type__: 'DefaultContainer',
          },
          'x-title': 'Container Settings',
        },
        override_code_storage_mount: optional('ApoloFilesMount', {
          'x-title': 'Override Default Storage Mount',
          'x-description': 'By default the code lives in storage:.apps/jupyter/<app name>/code.',
          'x-is-configurable': false,
        }),
      },
      ...hints('JupyterSpecificAppInputs', 'Jupyter App', 'Jupyter settings.'),
    },
  },
  properties: {
    preset: ref('Preset'),
    jupyter_specific: ref('JupyterSpecificAppInputs'),
    extra_storage_mounts: optional('StorageMounts'),
    networking: ref('BasicNetworkingConfig'),
    mlflow_integration: optional('MLFlowTrackingServerURL', {
      'x-title': 'MLFlow Integration',
      'x-description': 'Track experiments on an installed MLFlow app.',
    }),
  },
  required: ['preset', 'jupyter_specific'],
};

export const LLM_INFERENCE_SCHEMA: FormSchema = {
  type: 'object',
  title: 'LLMInferenceInputs',
  $defs: {
    ...COMMON_DEFS,
    HuggingFaceModel: {
      type: 'object',
      title: 'HuggingFaceModel',
      properties: {
        model_hf_name: {
          type: 'string',
          title: 'Model Name',
          'x-title': 'Model',
          'x-description': 'The name of the model on Hugging Face, or a GGUF file in Files.',
        },
        hf_token: optional('ApoloSecret', { 'x-title': 'Hugging Face Token' }),
      },
      required: ['model_hf_name'],
      ...hints('HuggingFaceModel', 'Model', 'The model the server loads.'),
    },
    AutoscalingKedaHTTP: {
      type: 'object',
      title: 'AutoscalingKedaHTTP',
      properties: {
        min_replicas: { type: 'integer', default: 1, minimum: 0, title: 'Min Replicas' },
        max_replicas: { type: 'integer', default: 5, minimum: 1, title: 'Max Replicas' },
        scaledown_period: { type: 'integer', default: 300, title: 'Scale-down Period' },
      },
      ...hints('AutoscalingKedaHTTP', 'HTTP Autoscaling', 'Scale replicas with the request rate.'),
    },
  },
  properties: {
    preset: ref('Preset'),
    ingress_http: optional('IngressHttp', { 'x-title': 'Public HTTP Ingress' }),
    hugging_face_model: ref('HuggingFaceModel'),
    tokenizer_hf_name: {
      type: 'string',
      default: '',
      title: 'Tokenizer Hf Name',
      'x-title': 'Tokenizer',
    },
    server_extra_args: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      title: 'Server Extra Args',
      'x-title': 'Server Extra Arguments',
      'x-description': 'e.g. --max-model-len=131072',
    },
    extra_env_vars: {
      type: 'array',
      items: ref('Env'),
      default: [],
      'x-title': 'Extra Environment Variables',
    },
    http_autoscaling: optional('AutoscalingKedaHTTP', {
      'x-title': 'HTTP Autoscaling',
      'x-is-advanced-field': true,
    }),
    docker_image_config: optional('ContainerImage', {
      'x-title': 'Docker Image',
      'x-is-advanced-field': true,
    }),
  },
  required: ['preset', 'hugging_face_model'],
};
