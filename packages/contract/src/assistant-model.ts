import { z } from 'zod';

/**
 * `GET/PUT /api/v1/copilot/orgs/{org}/model`: which model answers the organization's assistant.
 * Managers choose one of the organization's llm-inference apps (or none); members see only
 * whether a model answers. No address or key of a model is ever on the wire.
 */
export const copilotModelPath = (org: string) =>
  `/api/v1/copilot/orgs/${encodeURIComponent(org)}/model`;

export const CopilotModelSource = z.enum(['app', 'endpoint', 'embedded']);
export type CopilotModelSource = z.infer<typeof CopilotModelSource>;

export const CopilotModelSetting = z.object({
  /** Who answers the organization's questions: its app, the server's endpoint, or none. */
  source: CopilotModelSource,
  /** The chosen llm-inference app; shown to managers only (null for members and without one). */
  app_instance_id: z.string().nullable(),
  /** Whether the caller may change it (organization managers). */
  can_manage: z.boolean(),
});
export type CopilotModelSetting = z.infer<typeof CopilotModelSetting>;

export const CopilotModelChoice = z.object({ app_instance_id: z.string().uuid().nullable() });
export type CopilotModelChoice = z.infer<typeof CopilotModelChoice>;

/** `GET …/model/choices`: the organization's llm-inference apps its manager can read. */
export const CopilotModelApp = z.object({
  id: z.string(),
  display_name: z.string(),
  cluster_name: z.string(),
  project_name: z.string(),
  state: z.string(),
});
export type CopilotModelApp = z.infer<typeof CopilotModelApp>;
export const CopilotModelChoices = z.object({ items: z.array(CopilotModelApp) });
export type CopilotModelChoices = z.infer<typeof CopilotModelChoices>;
