import { z } from 'zod';

/**
 * Templates of the apps API: a named, versioned input
 * JSON Schema that the console renders into a form. The built-in `job` template drives the Create
 * new job page; app templates will use the same wire and the same form engine.
 */
export const JOB_TEMPLATE = 'job';
/** `GET …/templates/{name}/latest` names the newest version. */
export const LATEST_VERSION = 'latest';

/**
 * The part of JSON Schema that templates use, plus the console's `x-` hints (docs/forms.md).
 * Property names are the wire names of the values the form produces. A type rather than an
 * interface, so that it is also a plain JSON record (the wire's `input`).
 */
export type InputSchema = {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: readonly (string | number)[];
  pattern?: string;
  /** The pattern in words, shown instead of the regular expression (patterns.ts). */
  'x-pattern-name'?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, InputSchema>;
  required?: readonly string[];
  items?: InputSchema;
  anyOf?: readonly InputSchema[];
  /** UI title and description (app-types); win over `title`/`description`. */
  'x-title'?: string;
  'x-description'?: string;
  'x-logo-url'?: string;
  /** A special input: `image`, `preset`, `tags`, `env`, `volumes`, `textarea`. */
  'x-type'?: InputWidget;
  /** Labels of enum options, in the order of `enum`. */
  'x-enum-titles'?: readonly string[];
  /** Placeholder shown in an empty input. */
  'x-placeholder'?: string;
  /** Section of the form: consecutive properties with the same group share a titled section. */
  'x-group'?: string;
};
export const INPUT_WIDGETS = ['image', 'preset', 'tags', 'env', 'volumes', 'textarea'] as const;
export type InputWidget = (typeof INPUT_WIDGETS)[number];

/** The schema travels as plain JSON: the console's HTTP client keeps `input` keys as they are. */
const Input = z.record(z.string(), z.unknown());

export const TemplateSummary = z
  .object({
    name: z.string(),
    title: z.string(),
    version: z.string(),
    short_description: z.string(),
    tags: z.array(z.string()),
  })
  .meta({ id: 'TemplateSummary' });
export type TemplateSummaryWire = z.infer<typeof TemplateSummary>;

export const TemplateVersion = TemplateSummary.omit({ name: true }).meta({ id: 'TemplateVersion' });

export const Template = TemplateSummary.extend({
  input: Input,
  description: z.string(),
}).meta({ id: 'Template' });
export type TemplateWire = Omit<z.infer<typeof Template>, 'input'> & { input: InputSchema };

export const TemplateScopeParams = z.object({
  cluster: z.string().min(1),
  org: z.string().min(1),
  project: z.string().min(1),
});
export const TemplateNameParams = TemplateScopeParams.extend({ name: z.string().min(1) });
export const TemplateVersionParams = TemplateNameParams.extend({ version: z.string().min(1) });

/** `/apis/apps/v1/cluster/{C}/org/{O}/project/{P}`, the scope of the apps v1 API. */
export const appsScopePath = (cluster: string, org: string, project: string) =>
  `/apis/apps/v1/cluster/${encodeURIComponent(cluster)}/org/${encodeURIComponent(org)}/project/${encodeURIComponent(project)}`;
