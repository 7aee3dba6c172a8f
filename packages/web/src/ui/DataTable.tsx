import type { ReactNode } from 'react';
import {
  Alert,
  Loader,
  Table,
  type TableProps,
  type TableTdProps,
  type TableThProps,
  type TableTrProps,
} from '@mantine/core';
import { messageOf } from './errors';

/** One column of a `DataTable`: its header and what each row shows in it. */
export interface Column<Row> {
  /** The header's text; a column without one (row actions) names itself with `label`. */
  header?: ReactNode;
  /** Read out for a header without text. */
  label?: string;
  cell(row: Row, index: number): ReactNode;
  /** Props of the header cell (width). */
  th?: TableThProps;
  /** Props of each of the column's cells (alignment, wrapping), or of one row's cell. */
  td?: TableTdProps | ((row: Row) => TableTdProps);
}

/** A column of amounts: they line up on the right, header included. */
export const NUMERIC = { th: { ta: 'right' }, td: { ta: 'right' } } as const;

/**
 * The console's list table: a header row, one row per item, and the list's states before it —
 * loading, the server's message when loading failed, and `empty` when there is nothing to show.
 * Columns left out for this caller are passed as `false`. A row click (`onRowClick`) opens the
 * item; `selected` marks the item open beside the table.
 */
export function DataTable<Row>(props: {
  columns: (Column<Row> | false | null | undefined)[];
  rows: Row[] | undefined;
  /** Each row's React key; by position only where rows have no identity of their own. */
  rowKey(row: Row, index: number): string | number;
  /**
   * The list's query: while pending a loader named `loading`; when failed the server's message,
   * or `failed` when it gave none.
   */
  status?: {
    query: { isPending: boolean; isError: boolean; error: unknown };
    loading: string;
    failed: string;
  };
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  onRowClick?(row: Row): void;
  selected?(row: Row): boolean;
  /** Anything else a row carries (e.g. `aria-selected`). */
  rowProps?(row: Row): TableTrProps;
  /** No header row: a picker's list, whose columns need no names. */
  headless?: boolean;
  /** A footer row (e.g. a total), in the table's own cells. */
  foot?: ReactNode;
  /** Mantine's table look (striped, highlightOnHover, verticalSpacing…). */
  table?: TableProps;
}) {
  const { status } = props;
  if (status?.query.isPending) return <Loader aria-label={status.loading} />;
  if (status?.query.isError)
    return <Alert color="red">{messageOf(status.query.error, status.failed)}</Alert>;
  const rows = props.rows ?? [];
  if (rows.length === 0 && props.empty !== undefined) return <>{props.empty}</>;
  const columns = props.columns.filter((c): c is Column<Row> => !!c);
  return (
    <Table {...props.table}>
      {!props.headless && (
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => (
              <Table.Th key={i} aria-label={c.label} {...c.th}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>
        {rows.map((row, r) => (
          <Table.Tr
            key={props.rowKey(row, r)}
            onClick={props.onRowClick && (() => props.onRowClick!(row))}
            style={props.onRowClick ? { cursor: 'pointer' } : undefined}
            bg={props.selected?.(row) ? 'var(--mantine-primary-color-light)' : undefined}
            {...props.rowProps?.(row)}
          >
            {columns.map((c, i) => (
              <Table.Td key={i} {...(typeof c.td === 'function' ? c.td(row) : c.td)}>
                {c.cell(row, r)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
      {props.foot && <Table.Tfoot>{props.foot}</Table.Tfoot>}
    </Table>
  );
}
