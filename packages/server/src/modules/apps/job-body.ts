import { JobCreateFromPreset } from '@orrery/contract';
import type { AppJob } from './runner.js';

type Body = AppJob['body'];
/** What a runner writes of a job; the defaults of `POST /jobs?from_preset` fill the rest. */
export type JobDraft = Partial<Body> & Pick<Body, 'image'>;

const PLACE = { cluster_name: '-', org_name: '-', project_name: '-' };

/** A complete job body from a runner's draft; a draft the jobs API would refuse throws. */
export function jobBody(draft: JobDraft): Body {
  const {
    cluster_name: _c,
    org_name: _o,
    project_name: _p,
    ...body
  } = JobCreateFromPreset.parse({
    ...draft,
    ...PLACE,
  });
  return body;
}

/**
 * The preset the input asks for, where the fallback rule starts: `preset.name` (Apolo's `Preset`
 * field) or, in the `job` template, `preset_name`.
 */
export const presetNameOf = (input: Record<string, unknown>) => {
  const p = input.preset as { name?: unknown } | undefined;
  if (typeof p?.name === 'string') return p.name;
  return typeof input.preset_name === 'string' ? input.preset_name : undefined;
};

/** `KEY=value` pairs of an Apolo `Env` list (`[{name, value}]`). */
export function envOf(list: unknown): Record<string, string> {
  if (!Array.isArray(list)) return {};
  const out: Record<string, string> = {};
  for (const e of list as { name?: unknown; value?: unknown }[]) {
    if (typeof e?.name === 'string' && typeof e.value === 'string') out[e.name] = e.value;
  }
  return out;
}
