import { useMemo, useRef } from 'react';
import { Background, Controls, ReactFlow, type Edge } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { TaskStatus } from '@orrery/contract';
import { GRAPH_TEXTS, GRAPH_ZOOM, NODE_SIZE } from '../texts';
import { TASK_HANDLES, TaskNode, type TaskNodeType } from './TaskNode';
import type { GraphLayout } from './useGraphLayout';

const NODE_TYPES = { task: TaskNode };
/**
 * Past this many tasks the graph opens on its first rows at a readable zoom and draws only what
 * is in view: fitting a thousand nodes shows nothing legible and costs seconds of drawing.
 */
const BIG_GRAPH = 200;
const FIRST_VIEW_MARGIN = 40;

/**
 * The task graph of a bake from its layout (useGraphLayout). Polls change only
 * statuses, and a node keeps its object while its status stays, so React Flow redraws only the
 * nodes that moved on.
 */
export function BakeGraph(props: {
  layout: GraphLayout;
  statuses: ReadonlyMap<string, TaskStatus>;
  selected: string | null;
  onSelect(id: string): void;
}) {
  const { shape, positions } = props.layout;
  const edges: Edge[] = useMemo(
    () => shape.edges.map((e) => ({ id: `${e.source}->${e.target}`, ...e })),
    [shape],
  );

  const previous = useRef(new Map<string, TaskNodeType>());
  const nodes = useMemo(() => {
    const next = new Map<string, TaskNodeType>();
    const list = shape.ids.map((id) => {
      const status = props.statuses.get(id) ?? null;
      const selected = props.selected === id;
      const old = previous.current.get(id);
      const node =
        old && old.data.status === status && old.selected === selected
          ? old
          : {
              id,
              type: 'task' as const,
              position: positions.get(id)!,
              // Known sizes let React Flow show and fit the nodes before it has measured them.
              width: NODE_SIZE.width,
              height: NODE_SIZE.height,
              handles: TASK_HANDLES,
              selected,
              data: { label: id, status },
            };
      next.set(id, node);
      return node;
    });
    previous.current = next;
    return list;
  }, [shape, positions, props.statuses, props.selected]);

  // A big graph opens at a readable zoom on its top-left rows instead of fitting all of it.
  const firstView = useMemo(() => {
    if (shape.ids.length <= BIG_GRAPH) return undefined;
    let x = Infinity;
    let y = Infinity;
    for (const p of positions.values()) {
      x = Math.min(x, p.x);
      y = Math.min(y, p.y);
    }
    const zoom = GRAPH_ZOOM.max * 0.8;
    return { x: FIRST_VIEW_MARGIN - x * zoom, y: FIRST_VIEW_MARGIN - y * zoom, zoom };
  }, [shape, positions]);

  return (
    <div
      style={{ height: 'calc(100vh - 220px)', minHeight: 360 }}
      aria-label={GRAPH_TEXTS.region}
      role="region"
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        minZoom={GRAPH_ZOOM.min}
        maxZoom={GRAPH_ZOOM.max}
        fitView={!firstView}
        defaultViewport={firstView}
        onlyRenderVisibleElements={!!firstView}
        nodesDraggable={false}
        nodesConnectable={false}
        onNodeClick={(_e, node) => props.onSelect(node.id)}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
