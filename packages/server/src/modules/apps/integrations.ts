import { AppInstanceRef, type AppInputError } from '@orrery/contract';
import { deref, hasHint } from './input-schema.js';
import { parsePath, valueAt } from './json-path.js';

type Schema = Record<string, unknown>;

/** A resolved reference: the field (dotted path in the input) and what it named. */
export interface Link {
  field: string;
  targetId: string;
  path: string;
}

export interface RefTarget {
  id: string;
  place: string;
  outputs: () => Promise<Record<string, unknown>>;
}

/**
 * Replaces every `{"type":"app-instance-ref",…}` in a field marked `x-meta-type: integration` by
 * the value it names in that instance's outputs. Only an instance of the same cluster,
 * organization and project counts (`find` answers null for any other); each refusal is an error
 * on that field.
 */
export async function resolveRefs(
  root: Schema,
  input: Record<string, unknown>,
  place: string,
  find: (id: string) => Promise<RefTarget | null>,
): Promise<{ resolved: Record<string, unknown>; links: Link[]; errors: AppInputError[] }> {
  const links: Link[] = [];
  const errors: AppInputError[] = [];

  const walk = async (
    schema: Schema | undefined,
    value: unknown,
    path: string[],
  ): Promise<unknown> => {
    if (!schema || !value || typeof value !== 'object' || Array.isArray(value)) return value;
    const props = objectProps(root, schema);
    if (!props) return value;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, v] of Object.entries(out)) {
      const sub = props[key];
      if (!sub) continue;
      const here = [...path, key];
      const ref = AppInstanceRef.safeParse(v);
      if (ref.success && hasHint(root, sub, 'x-meta-type', 'integration')) {
        const err = (message: string) => errors.push({ path: here, message });
        const steps = parsePath(ref.data.path);
        if (!steps) {
          err(`${ref.data.path} is not a path such as $.a.b or $.a[1].b`);
          continue;
        }
        const target = await find(ref.data.instance_id);
        if (!target || target.place !== place) {
          err(`No app instance ${ref.data.instance_id} in this project`);
          continue;
        }
        const found = valueAt(await target.outputs(), steps);
        if (found === undefined) {
          err(`The app instance ${ref.data.instance_id} has no output at ${ref.data.path}`);
          continue;
        }
        out[key] = found;
        links.push({ field: here.join('.'), targetId: target.id, path: ref.data.path });
      } else {
        out[key] = await walk(sub, v, here);
      }
    }
    return out;
  };

  const resolved = (await walk(root, input, [])) as Record<string, unknown>;
  return { resolved, links, errors };
}

/** The properties of an object schema, or of the object branch of an `anyOf`. */
function objectProps(root: Schema, s: Schema): Record<string, Schema> | null {
  const at = deref(root, s);
  if (!at) return null;
  if (at.properties) return at.properties as Record<string, Schema>;
  for (const b of (at.anyOf ?? at.oneOf ?? []) as Schema[]) {
    const d = deref(root, b);
    if (d?.properties) return d.properties as Record<string, Schema>;
  }
  return null;
}
