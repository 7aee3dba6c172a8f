import { memo } from 'react';
import { Handle, Position, type Node, type NodeHandle, type NodeProps } from '@xyflow/react';
import type { TaskStatus } from '@orrery/contract';
import { STATUS_COLOR } from '../rules';
import { GRAPH_TEXTS, NODE_SIZE } from '../texts';

export type TaskNodeData = { label: string; status: TaskStatus | null };
export type TaskNodeType = Node<TaskNodeData, 'task'>;

/** React Flow's handle: 6 px and a 1 px border, centred on the node's top or bottom edge. */
const HANDLE = 8;
/**
 * Where a task's two handles are, declared with the node: React Flow draws every node whose
 * handles it has not measured yet, even with `onlyRenderVisibleElements`, so a big bake would
 * mount (and measure) a thousand nodes to draw the fifty in view.
 */
const handle = (type: 'source' | 'target', position: Position, y: number): NodeHandle => ({
  type,
  position,
  x: NODE_SIZE.width / 2 - HANDLE / 2,
  y: y - HANDLE / 2,
  width: HANDLE,
  height: HANDLE,
});
export const TASK_HANDLES: NodeHandle[] = [
  handle('target', Position.Top, 0),
  handle('source', Position.Bottom, NODE_SIZE.height),
];

const color = (s: TaskStatus | null) =>
  s ? `var(--mantine-color-${STATUS_COLOR[s]}-6)` : 'var(--mantine-color-gray-4)';

/**
 * One task (225 × 84) in its status colour. Plain elements and memoized, since a
 * bake may draw a thousand of them and a poll changes only a few.
 */
export const TaskNode = memo(function TaskNode({ data, selected }: NodeProps<TaskNodeType>) {
  const c = color(data.status);
  return (
    <div
      aria-label={`Task ${data.label}: ${data.status ?? GRAPH_TEXTS.notStarted}`}
      data-status={data.status ?? 'waiting'}
      style={{
        width: NODE_SIZE.width,
        height: NODE_SIZE.height,
        boxSizing: 'border-box',
        padding: '10px 14px',
        borderRadius: 8,
        borderStyle: 'solid',
        borderColor: c,
        borderWidth: '2px 2px 2px 8px',
        background: 'var(--mantine-color-body)',
        boxShadow: selected ? `0 0 0 3px ${c}` : undefined,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        gap: 6,
        cursor: 'pointer',
      }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div
        style={{
          fontWeight: 600,
          fontSize: 15,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
        title={data.label}
      >
        {data.label}
      </div>
      <div style={{ color: c, fontSize: 13, fontWeight: 600, textTransform: 'uppercase' }}>
        {data.status ?? GRAPH_TEXTS.notStarted}
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
