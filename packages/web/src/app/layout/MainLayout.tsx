import { Suspense } from 'react';
import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { BudgetBanner } from '../../features/billing/budgets/BudgetBanner';
import { usePurchaseReturn } from '../../features/billing/buy/usePurchaseReturn';
import { VerifyEmailNotice } from '../session/VerifyEmailNotice';
import { ShortcutsDialog } from '../shortcuts/ShortcutsDialog';
import { useShortcuts } from '../shortcuts/useShortcuts';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';

export default function MainLayout({ hasCluster }: { hasCluster: boolean }) {
  const [navOpened, { toggle }] = useDisclosure(false);
  usePurchaseReturn();
  const shortcuts = useShortcuts(hasCluster);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <TopBar navOpened={navOpened} toggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar>
        <SideMenu hasCluster={hasCluster} onShortcuts={shortcuts.openHelp} />
      </AppShell.Navbar>
      <AppShell.Main>
        <VerifyEmailNotice />
        <BudgetBanner />
        <Suspense
          fallback={
            <Center py="xl">
              <Loader />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <ShortcutsDialog
        opened={shortcuts.helpOpened}
        onClose={shortcuts.closeHelp}
        jumps={shortcuts.jumps}
      />
    </AppShell>
  );
}
