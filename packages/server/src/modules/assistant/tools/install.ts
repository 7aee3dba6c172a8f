import { LATEST_VERSION, projectUri } from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import type { Db } from '../../../db/client.js';
import { conflict, forbidden, invalid, notFound } from '../../../http/errors.js';
import type { Catalogue } from '../../apps/catalogue.js';
import { propertiesOf, validateInput } from '../../apps/input-schema.js';
import { fallbackPreset } from '../../apps/service.js';
import { loadClusters, type ClusterCatalog } from '../../clusters/store.js';
import { presetWire } from '../../clusters/wire.js';
import type { PlanSpec } from '../plans.js';
import type { Asker } from '../types.js';
import type { ChangeIntent } from './intents.js';
import { inlineText, withMarkdown } from './markdown.js';
import { consoleUrl, placeOf } from './resolve.js';

export const INSTALL_TEXTS = {
  noProject: 'Open a project first: an app is installed in the project you have open',
  noTemplate: (name: string) => `No app template named ${name}`,
  noPreset: (name: string, cluster: string) => `Preset ${name} not found on cluster ${cluster}`,
  noPresets: (cluster: string) => `No preset of cluster ${cluster} can run an app`,
  needsInputs: (title: string, fields: string[], page: string) =>
    `${title} needs inputs its defaults cannot fill (${fields.join(', ')}): fill them in on [its install page](${page}).`,
} as const;

type Install = Extract<ChangeIntent, { kind: 'install-app' }>;

/**
 * The plan of the console's Install button: the newest version of the template, its input's
 * defaults with the chosen preset (else the one the apps service would pick), priced at that
 * preset. A template whose required inputs the defaults leave empty is sent to its install page.
 */
export async function proposeInstall(
  deps: { db: Db; catalogue: Catalogue; clusterCatalog: ClusterCatalog },
  asker: Asker,
  intent: Install,
): Promise<PlanSpec> {
  const here = placeOf(asker);
  if (!here) throw conflict(INSTALL_TEXTS.noProject);
  if (!allows(asker.grants, projectUri(here.cluster, here.org, here.project), 'write'))
    throw forbidden();
  const t = deps.catalogue.find(intent.template, LATEST_VERSION);
  if (!t) throw notFound(INSTALL_TEXTS.noTemplate(intent.template));
  const why = deps.catalogue.unavailable(t);
  if (why) throw conflict(why);

  const [cluster] = await loadClusters(deps.clusterCatalog, [here.cluster]);
  const presets = cluster?.presets ?? [];
  const preset = intent.preset
    ? presets.find((p) => p.name === intent.preset)
    : fallbackPreset(presets);
  if (!preset)
    throw intent.preset
      ? invalid('preset', INSTALL_TEXTS.noPreset(intent.preset, here.cluster))
      : conflict(INSTALL_TEXTS.noPresets(here.cluster));

  const input = defaultsWith(t.input, preset.name);
  const page = `/apps/${encodeURIComponent(t.manifest.name)}/install`;
  // Validation fills the defaults in place; what is still missing, only the user can give.
  const missing = validateInput(t.input, input).map((e) => e.path.join('.') || 'input');
  if (missing.length) {
    const fields = [...new Set(missing)];
    const markdown = INSTALL_TEXTS.needsInputs(
      inlineText(t.manifest.title),
      fields.map(inlineText),
      page,
    );
    throw withMarkdown(
      conflict(INSTALL_TEXTS.needsInputs(t.manifest.title, fields, page)),
      markdown,
    );
  }

  // Without a name the apps service names it as the console's blank field does.
  const displayName = intent.name ?? t.manifest.title;
  return {
    title: `Install ${t.manifest.title} ${t.manifest.version}${intent.name ? ` named ${intent.name}` : ''} on preset ${preset.name}`,
    call: {
      method: 'POST',
      path: `/apis/apps/v1/cluster/${here.cluster}/org/${here.org}/project/${here.project}/instances`,
      body: {
        template_name: t.manifest.name,
        template_version: t.manifest.version,
        ...(intent.name ? { display_name: intent.name } : {}),
        input,
      },
    },
    context: here,
    creditsPerHour: presetWire(preset).credits_per_hour,
    resultUrl: consoleUrl.installedApps,
    doneMessage: `${displayName} is being installed`,
  };
}

/** The input the defaults start from: the preset where the schema takes one. */
function defaultsWith(schema: Record<string, unknown>, preset: string): Record<string, unknown> {
  const props = propertiesOf(schema);
  if (props.preset) return { preset: { name: preset } };
  // The legacy deployer apps (pycharm) and the job template name it `preset_name`.
  if (props.preset_name) return { preset_name: preset };
  return {};
}
