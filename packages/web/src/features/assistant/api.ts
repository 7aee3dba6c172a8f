import type { PlanOutcome } from '@orrery/contract';
import { API, request } from '../../api/client';

export type Outcome = ReturnType<typeof PlanOutcome.parse>;

/** `POST /api/v1/copilot/plans/{id}/confirm`: makes the plan's call, once, as the user. */
export const confirmPlan = (id: string, confirmation: string) =>
  request<Outcome>(`${API.core}/copilot/plans/${encodeURIComponent(id)}/confirm`, {
    method: 'POST',
    body: { confirmation },
  });
