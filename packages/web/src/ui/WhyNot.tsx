import { cloneElement, type ReactElement } from 'react';
import { Tooltip } from '@mantine/core';
import type { Can } from '../api/permissions';

// A disabled link would still navigate: refused, an action is a plain disabled button.
const DISABLED = { disabled: true, component: 'button', to: undefined, href: undefined };

/**
 * An action as the permission engine allows it (api/permissions.ts `useCan`): enabled when
 * allowed; otherwise disabled, with the server's reason as its tooltip. With `hide` (actions
 * for managers only) it is not rendered at all unless allowed. The child's own `disabled`
 * (a state rule, e.g. Kill only while running) still applies.
 */
export function WhyNot(props: {
  can: Can;
  hide?: boolean;
  /** The action's own tooltip (an icon's name) while it is allowed. */
  tooltip?: string;
  /** The action fills its row (a full-width button): so does the tooltip's wrapper. */
  block?: boolean;
  children: ReactElement<{ disabled?: boolean; component?: unknown }>;
}) {
  const { can, children } = props;
  if (props.hide && !can.allowed) return null;
  if (can.allowed)
    return props.tooltip ? <Tooltip label={props.tooltip}>{children}</Tooltip> : children;
  // A disabled button fires no pointer events, so the tooltip needs a wrapper to explain itself;
  // the wrapper stays while the answer is pending so that the button is not mounted anew.
  return (
    <Tooltip label={can.reason} disabled={!can.reason} multiline maw={320}>
      <span style={{ display: props.block ? 'block' : 'inline-block' }}>
        {cloneElement(children, DISABLED)}
      </span>
    </Tooltip>
  );
}
