import { Anchor } from '@mantine/core';
import type { AnchorProps } from '@mantine/core';
import { useLocation } from 'react-router';
import { useOptionalPlatformContext } from '../app/context/platform-context';
import { useOptionalSession } from '../app/session/session-context';
import { buildSupportMailto, SUPPORT_TEXTS } from './support-mail';

/**
 * The support mail for the current page, or null without a configured address (a mail with no
 * recipient is a dead end). Works before the configuration loads too: then there is none yet.
 */
export function useSupportMailto(): string | null {
  const session = useOptionalSession();
  const context = useOptionalPlatformContext();
  // Re-render on navigation so the page address in the mail is the current one.
  useLocation();
  const email = session?.config.supportEmail;
  if (!email) return null;
  return buildSupportMailto(email, {
    username: session?.username,
    org: context?.org?.name,
    cluster: context?.cluster?.name,
    project: context?.project?.name,
    page: window.location.href,
  });
}

export function SupportLink({ children, ...props }: AnchorProps & { children?: string }) {
  const href = useSupportMailto();
  if (!href) return null;
  return (
    <Anchor href={href} {...props}>
      {children ?? SUPPORT_TEXTS.link}
    </Anchor>
  );
}
