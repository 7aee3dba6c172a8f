import { Anchor } from '@mantine/core';
import type { AnchorProps } from '@mantine/core';
import { useLocation } from 'react-router';
import { useOptionalPlatformContext } from '../app/context/platform-context';
import { useOptionalSession } from '../app/session/session-context';
import { buildSupportMailto, SUPPORT_TEXTS } from './support-mail';

/** Works before the configuration loads too: the mail then simply has no recipient yet. */
export function SupportLink({ children, ...props }: AnchorProps & { children?: string }) {
  const session = useOptionalSession();
  const context = useOptionalPlatformContext();
  // Re-render on navigation so the page address in the mail is the current one.
  useLocation();
  const href = buildSupportMailto(session?.config.supportEmail, {
    username: session?.username,
    org: context?.org?.name,
    cluster: context?.cluster?.name,
    project: context?.project?.name,
    page: window.location.href,
  });
  return (
    <Anchor href={href} {...props}>
      {children ?? SUPPORT_TEXTS.link}
    </Anchor>
  );
}
