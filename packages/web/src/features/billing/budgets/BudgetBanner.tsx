import { useState } from 'react';
import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { budgetSentence } from '@orrery/contract';
import { ContextLink } from '../../../app/context/ContextLink';
import { usePlatformContext } from '../../../app/context/platform-context';
import { useManagesOrg } from '../../people/manages';
import { type Budget, useBudgetAlerts } from './api';
import { BUDGET_UI as T } from './texts';

const STORAGE_KEY = 'orrery.budget-banner.dismissed';

/** A banner is dismissed for the browser session, until a higher threshold or a new month. */
const keyOf = (b: Budget) => `${b.orgName}/${b.projectName ?? ''}/${b.period}/${b.crossed}`;

function dismissedKeys(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

/**
 * Above every page: the current organization's budgets crossed this month, for its managers,
 * and a project's for that project's members (the server answers only what the caller may see).
 */
export function BudgetBanner() {
  const { org } = usePlatformContext();
  return org ? <Banners key={org.name} org={org.name} /> : null;
}

function Banners({ org }: { org: string }) {
  const alerts = useBudgetAlerts(org);
  const manages = useManagesOrg();
  const [dismissed, setDismissed] = useState(dismissedKeys);
  const shown = (alerts.data ?? []).filter((b) => !dismissed.has(keyOf(b)));
  if (!shown.length) return null;

  const dismiss = (b: Budget) => {
    const next = new Set(dismissed).add(keyOf(b));
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...next]));
    setDismissed(next);
  };

  return (
    <Stack gap="xs" mb="md">
      {shown.map((b) => (
        <Alert
          key={keyOf(b)}
          color={b.percent >= 100 ? 'red' : 'orange'}
          icon={<IconAlertTriangle size={18} />}
          withCloseButton
          closeButtonLabel={T.dismiss}
          onClose={() => dismiss(b)}
          role="alert"
        >
          {budgetSentence({ ...b, org: b.orgName, project: b.projectName })}
          {manages && (
            <>
              {' · '}
              <Anchor component={ContextLink} to="/org-billing/credits" size="sm">
                {T.open}
              </Anchor>
            </>
          )}
        </Alert>
      ))}
    </Stack>
  );
}
