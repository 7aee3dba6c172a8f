export interface SupportDetails {
  username?: string | null;
  org?: string | null;
  cluster?: string | null;
  project?: string | null;
  /** The address of the page the user is looking at. */
  page: string;
}

export const SUPPORT_TEXTS = {
  link: 'Contact support',
  none: 'none',
};

const line = (label: string, value: string | null | undefined) =>
  `${label}: ${value || SUPPORT_TEXTS.none}`;

/** A `mailto:` whose subject and body let support see who asks, where, and about which page. */
export function buildSupportMailto(email: string | null | undefined, d: SupportDetails): string {
  const subject = `Support request from ${d.username || 'a user'} (organization ${
    d.org || SUPPORT_TEXTS.none
  }, cluster ${d.cluster || SUPPORT_TEXTS.none}, project ${d.project || SUPPORT_TEXTS.none})`;
  const body = [
    line('Username', d.username),
    line('Organization', d.org),
    line('Cluster', d.cluster),
    line('Project', d.project),
    line('Page', d.page),
    '',
    'Please describe the problem:',
    '',
  ].join('\n');
  return `mailto:${encodeURIComponent(email ?? '')}?subject=${encodeURIComponent(
    subject,
  )}&body=${encodeURIComponent(body)}`;
}
