import { describe, expect, it } from 'vitest';
import { validate } from './rules';
import type { ContainerNode, FormNode } from './schema';
import { hasRequiredIntegration, integrationOf } from './schema';
import { JUPYTER_SCHEMA, LLM_INFERENCE_SCHEMA, SHELL_SCHEMA } from './testdata/apolo-schemas';
import { schemaRoot } from './useSchemaForm';
import { activeOption, initialValue } from './values';

const child = (n: FormNode, name: string): FormNode => {
  if (n.kind === 'container') return n.children.find((c) => c.name === name)!;
  if (n.kind === 'anyOf')
    return child(
      n.options.find((o) => o.kind === 'container')!,
      name,
    );
  throw new Error(`${n.kind} has no children`);
};

describe("Apolo's vocabulary in the node tree", () => {
  it("reads class names as widgets on the value they wrap, and Orrery's own names as before", () => {
    const shell = schemaRoot(SHELL_SCHEMA);
    const preset = child(shell, 'preset') as ContainerNode;
    expect(preset).toMatchObject({ kind: 'container', className: 'Preset', wraps: 'name' });
    expect(preset.title).toBe('Resource Preset');
    expect(child(preset, 'name')).toMatchObject({ widget: 'preset' });
    const mount = child(
      child(schemaRoot(JUPYTER_SCHEMA), 'jupyter_specific'),
      'override_code_storage_mount',
    );
    const files = child(mount, 'storage_uri');
    expect(child(files, 'path')).toMatchObject({ widget: 'filesPath', check: 'storagePath' });
    expect(child(child(mount, 'mount_path'), 'path')).toMatchObject({ check: 'absolutePath' });
    const job = schemaRoot({
      type: 'object',
      properties: {
        image: { type: 'string', 'x-type': 'image' },
        tags: { type: 'array', 'x-type': 'tags' },
      },
    });
    expect(child(job, 'image')).toMatchObject({ widget: 'image', className: undefined });
    expect(child(job, 'tags')).toMatchObject({ kind: 'array', widget: 'tags' });
  });

  it('marks advanced fields, and non-configurable nodes with everything under them', () => {
    const llm = schemaRoot(LLM_INFERENCE_SCHEMA);
    expect(child(llm, 'http_autoscaling').advanced).toBe(true);
    expect(child(llm, 'docker_image_config').advanced).toBe(true);
    expect(child(llm, 'preset').advanced).toBe(false);
    const mount = child(
      child(schemaRoot(JUPYTER_SCHEMA), 'jupyter_specific'),
      'override_code_storage_mount',
    );
    expect(mount.configurable).toBe(false);
    expect(child(child(mount, 'storage_uri'), 'path').configurable).toBe(false);
    expect(child(schemaRoot(JUPYTER_SCHEMA), 'preset').configurable).toBe(true);
  });

  it('finds integration inputs on the field or on the class of their option', () => {
    const jupyter = schemaRoot(JUPYTER_SCHEMA);
    expect(integrationOf(child(jupyter, 'mlflow_integration'))).toEqual({
      typeName: 'MLFlowTrackingServerURL',
    });
    expect(integrationOf(child(jupyter, 'preset'))).toBeNull();
    const required = schemaRoot({
      type: 'object',
      properties: {
        group: {
          type: 'object',
          required: ['llm'],
          properties: {
            llm: { type: 'object', 'x-meta-type': 'integration', 'x-type': 'ChatAPI' },
          },
        },
        plain: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    expect(hasRequiredIntegration(child(required, 'group'))).toBe(true);
    expect(hasRequiredIntegration(child(required, 'plain'))).toBe(false);
  });

  it('starts from the defaults, keeping their __type__ markers, and matches options by them', () => {
    const shell = schemaRoot(SHELL_SCHEMA);
    const v = initialValue(shell) as Record<string, unknown>;
    expect(v.networking).toEqual({
      __type__: 'BasicNetworkingConfig',
      ingress_http: {
        __type__: 'IngressHttp',
        auth: { type: 'apolo_auth', __type__: 'ApoloAuth' },
      },
    });
    const auth = child(child(shell, 'networking'), 'ingress_http');
    const choice = child(auth, 'auth');
    if (choice.kind !== 'anyOf') throw new Error('auth is a choice');
    expect(activeOption(choice.options, { type: 'no_auth', __type__: 'NoAuth' })).toBe(1);
    expect(activeOption(choice.options, { type: 'apolo_auth' })).toBe(0);
  });
});

describe("rules of Apolo's classes", () => {
  const jupyter = schemaRoot(JUPYTER_SCHEMA);
  const base = () => initialValue(jupyter) as Record<string, unknown>;
  const mount = (storage: string, path: string) => ({
    ...base(),
    preset: { name: 'cpu-small' },
    jupyter_specific: {
      container_settings: { container_image: 'ghcr.io/neuro-inc/base:v25.3.0-runtime' },
      override_code_storage_mount: {
        storage_uri: { path: storage },
        mount_path: { path },
        mode: { mode: 'rw' },
      },
    },
  });

  it('asks a files path to start with storage: and a mount path to be absolute', () => {
    expect(validate(jupyter, mount('storage:code', '/root/notebooks'))).toEqual({});
    expect(validate(jupyter, mount('code', 'notebooks'))).toEqual({
      'jupyter_specific.override_code_storage_mount.storage_uri.path':
        'The path must start with storage:',
      'jupyter_specific.override_code_storage_mount.mount_path.path':
        'The path must be absolute (start with /)',
    });
  });

  it('requires the preset name, and accepts an app-instance-ref for an integration input', () => {
    const errors = validate(jupyter, base());
    expect(errors['preset.name']).toBe('Required');
    const withRef = {
      ...mount('storage:code', '/code'),
      mlflow_integration: { type: 'app-instance-ref', instance_id: 'abc', path: '$.server_url' },
    };
    expect(validate(jupyter, withRef)).toEqual({});
  });
});
