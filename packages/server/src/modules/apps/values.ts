import { deref } from './input-schema.js';
import type { AppsService } from './service.js';
import type { InstanceRow } from './store.js';

type Schema = Record<string, unknown>;

/** The type name of an output: its `x-type`, else the `$defs` entry it refers to. */
function typeOf(root: Schema, s: Schema): string {
  if (typeof s['x-type'] === 'string') return s['x-type'];
  if (typeof s.$ref === 'string') {
    const target = deref(root, s);
    if (typeof target?.['x-type'] === 'string') return target['x-type'];
    return s.$ref.split('/').pop()!;
  }
  return typeof s.type === 'string' ? s.type : 'object';
}

/**
 * The values of an instance (`app get-values`, integrations by type name): one per top-level
 * output, typed by its output schema, at `$.<key>`.
 */
export async function valuesOf(apps: AppsService, row: InstanceRow, type?: string) {
  const t = apps.catalogue.find(row.templateName, row.templateVersion);
  if (!t) return [];
  const outputs = await apps.outputs(row);
  const props = (deref(t.output, t.output)?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props)
    .filter(([key]) => outputs[key] !== undefined)
    .map(([key, s]) => ({
      instance_id: row.id,
      type: typeOf(t.output, s),
      path: `$.${key}`,
      value: outputs[key],
    }))
    .filter((v) => !type || v.type === type);
}
