import { Alert, Anchor, Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { CENTS_PER_CREDIT } from '@orrery/contract';
import { CenteredPage } from '../../../ui/CenteredPage';
import { messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';
import { useCheckoutAction, useTestCheckout } from './api';
import { CHECKOUT_TEXTS as T } from './texts';

/**
 * Orrery's own checkout in test mode: what a Stripe page would ask, marked as a test in which no
 * money moves. The server lets only the organization's managers see and pay it.
 */
export default function TestCheckoutPage() {
  const { id = '' } = useParams();
  const checkout = useTestCheckout(id);
  const action = useCheckoutAction(id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const go = async (which: 'pay' | 'cancel') => {
    let target: URL;
    try {
      target = new URL(await action.mutateAsync(which), window.location.href);
    } catch (error) {
      notifyError(messageOf(error, T.failed));
      return;
    }
    // The balance changed: the top bar and the billing page read it again.
    await queryClient.invalidateQueries();
    // The server accepts only this console's addresses, so the return stays in the app.
    if (target.origin === window.location.origin) navigate(target.pathname + target.search);
    else window.location.assign(target.href);
  };

  if (checkout.isPending) {
    return (
      <CenteredPage>
        <Loader aria-label={T.loading} />
      </CenteredPage>
    );
  }
  if (checkout.isError) {
    return (
      <CenteredPage>
        <Title order={2}>{T.title}</Title>
        <Alert color="red">{messageOf(checkout.error, T.failed)}</Alert>
        <Anchor href="/">{T.back}</Anchor>
      </CenteredPage>
    );
  }
  const c = checkout.data;
  const closed = c.status !== 'open';
  return (
    <CenteredPage>
      <Group justify="space-between">
        <Title order={2}>{T.title}</Title>
        <Badge color="yellow" variant="light">
          {T.testBadge}
        </Badge>
      </Group>
      <Alert color="yellow" title={T.testTitle}>
        {T.testBody}
      </Alert>
      <Table variant="vertical" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={140}>{T.organization}</Table.Th>
            <Table.Td>{c.orgName}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{T.credits}</Table.Th>
            <Table.Td>{c.credits.toLocaleString('en-US')}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{T.price}</Table.Th>
            <Table.Td>{T.priceValue(c.credits * CENTS_PER_CREDIT)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {closed ? (
        <>
          <Text>{c.status === 'paid' ? T.paid : T.cancelled}</Text>
          <Anchor href={c.status === 'paid' ? c.successUrl : c.cancelUrl}>{T.back}</Anchor>
        </>
      ) : (
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void go('cancel')} disabled={action.isPending}>
            {T.cancel}
          </Button>
          <Button onClick={() => void go('pay')} loading={action.isPending}>
            {T.pay}
          </Button>
        </Group>
      )}
    </CenteredPage>
  );
}
