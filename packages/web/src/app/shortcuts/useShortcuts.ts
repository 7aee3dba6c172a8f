import { useEffect, useMemo } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { useManagesOrg } from '../../features/people/manages';
import { useContextLink } from '../context/platform-context';
import { useAccount } from '../session/account';
import { createShortcutReader, jumpsFor, PAGE_SEARCH_SELECTOR } from './shortcuts';

/** Listens for the shortcuts on the whole window while the main layout is shown. */
export function useShortcuts(hasCluster: boolean) {
  const navigate = useNavigate();
  const link = useContextLink();
  const { user, orgs } = useAccount();
  // The organization's pages are offered as the permission engine answers (never from role names).
  const isOrgManager = useManagesOrg();
  const [helpOpened, help] = useDisclosure(false);
  const jumps = useMemo(
    () =>
      jumpsFor({
        hasOrg: orgs.length > 0,
        hasCluster,
        isOrgManager,
        hasSystemRole: Boolean(user.systemRole),
      }),
    [orgs.length, hasCluster, isOrgManager, user.systemRole],
  );
  useEffect(() => {
    const read = createShortcutReader(() => jumps);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = read(e);
      if (!action) return;
      if (action.kind === 'search') {
        const field = document.querySelector<HTMLElement>(PAGE_SEARCH_SELECTOR);
        // A page without a search field leaves `/` to the browser.
        if (!field) return;
        field.focus();
      } else if (action.kind === 'go') navigate(link(action.path));
      else help.open();
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [jumps, navigate, link, help]);
  return { jumps, helpOpened, openHelp: help.open, closeHelp: help.close };
}
