import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../ui/notify';
import { IMAGE_TEXTS } from './texts';

/** The copy confirmation lasts 2 s; the tooltip waits 300 ms. */
export const COPIED_MS = 2000;

/** A copy button: writes `value` to the clipboard, toasts "Copied to clipboard", shows a check. */
export function CopyAction(props: { value: string; label: string; icon?: ReactNode }) {
  const { value, label } = props;
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      notifyError(IMAGE_TEXTS.copyFailed);
      return;
    }
    notifySuccess(IMAGE_TEXTS.copied);
    setCopied(true);
    clearTimeout(timer.current ?? undefined);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <Tooltip label={copied ? IMAGE_TEXTS.copied : label} openDelay={300} withArrow>
      <ActionIcon
        variant="subtle"
        color={copied ? 'teal' : 'gray'}
        aria-label={label}
        onClick={(e) => {
          e.stopPropagation();
          void copy();
        }}
      >
        {copied ? <IconCheck size={16} /> : (props.icon ?? <IconCopy size={16} />)}
      </ActionIcon>
    </Tooltip>
  );
}
