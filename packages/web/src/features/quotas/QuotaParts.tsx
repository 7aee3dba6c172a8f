import { Table, Text, TextInput } from '@mantine/core';
import { formatMemory, QUOTA_RESOURCES, type QuotaResource } from '@orrery/contract';
import { fieldErrorOf } from '../../ui/errors';
import { CAMEL, type QuotaLimitsSeen, type QuotaValues } from './quotaForm';
import { QUOTAS_UI } from './texts';

const U = QUOTAS_UI;

/** An amount as the console shows it: memory in its unit, the rest as a number. */
export const formatLimit = (r: QuotaResource, v: number | null | undefined) =>
  v === null || v === undefined
    ? U.unlimited
    : r === 'memory'
      ? formatMemory(v)
      : `${+v.toFixed(6)}`;

/**
 * The inputs of a quota: per resource its quota and borrowing limit. Errors are the form's own
 * (keyed by the wire's path) and the server's, whose paths start with `serverPrefix`.
 */
export function QuotaFields(props: {
  values: QuotaValues;
  onChange(v: QuotaValues): void;
  errors: Record<string, string>;
  serverError: unknown;
  serverPrefix: string;
}) {
  const { values, onChange } = props;
  const errorOf = (path: string) =>
    props.errors[path] ?? fieldErrorOf(props.serverError, `${props.serverPrefix}${path}`);
  const input = (kind: 'nominal' | 'borrowing', r: QuotaResource) => {
    const path = kind === 'nominal' ? r : `borrowing_limit.${r}`;
    return (
      <TextInput
        aria-label={`${U.fields[r]}: ${kind === 'nominal' ? U.quota : U.borrowing}`}
        inputMode={r === 'cpu' || r === 'memory' ? 'decimal' : 'numeric'}
        placeholder={U.unlimited}
        value={values[kind][r]}
        onChange={(e) =>
          onChange({ ...values, [kind]: { ...values[kind], [r]: e.currentTarget.value } })
        }
        error={errorOf(path)}
      />
    );
  };
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{U.resource}</Table.Th>
          <Table.Th>{U.quota}</Table.Th>
          <Table.Th>{U.borrowing}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {QUOTA_RESOURCES.map((r) => (
          <Table.Tr key={r}>
            <Table.Td>{U.fields[r]}</Table.Td>
            <Table.Td>{input('nominal', r)}</Table.Td>
            <Table.Td>{input('borrowing', r)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Caption>
        <Text size="xs" c="dimmed" ta="left">
          {U.emptyHint}. {U.borrowingHint}
        </Text>
      </Table.Caption>
    </Table>
  );
}

/** A quota read-only: per resource its quota, borrowing limit and what is in use now. */
export function QuotaView(props: {
  quota: QuotaLimitsSeen & { borrowingLimit: QuotaLimitsSeen };
  used: Record<keyof QuotaLimitsSeen, number>;
  jobs?: { quota: number | null; running: number };
}) {
  const { quota, used } = props;
  return (
    <Table striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{U.resource}</Table.Th>
          <Table.Th>{U.quota}</Table.Th>
          <Table.Th>{U.borrowing}</Table.Th>
          <Table.Th>{U.used}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.jobs && (
          <Table.Tr>
            <Table.Td>{U.jobs}</Table.Td>
            <Table.Td>{props.jobs.quota ?? U.unlimited}</Table.Td>
            <Table.Td>—</Table.Td>
            <Table.Td>{props.jobs.running}</Table.Td>
          </Table.Tr>
        )}
        {QUOTA_RESOURCES.map((r) => {
          const nominal = quota[CAMEL[r]];
          return (
            <Table.Tr key={r}>
              <Table.Td>{U.resources[r]}</Table.Td>
              <Table.Td>{formatLimit(r, nominal)}</Table.Td>
              <Table.Td>
                {nominal === null ? '—' : formatLimit(r, quota.borrowingLimit[CAMEL[r]])}
              </Table.Td>
              <Table.Td>
                {r === 'memory' ? formatMemory(used.memory) : formatLimit(r, used[CAMEL[r]])}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
