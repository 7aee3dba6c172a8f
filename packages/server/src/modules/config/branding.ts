import type { BrandingWire } from '@orrery/contract';
import type { Config } from '../../config.js';

/** Title and logo by hostname (white label); partner brands carry a "Powered by" line. */
export function brandingFor(config: Config, hostname: string): BrandingWire {
  const host = hostname.replace(/:\d+$/, '').toLowerCase();
  const label = config.branding.whiteLabels[host];
  if (label) return { title: label.title, logo_url: label.logo_url, powered_by: label.powered_by };
  return { title: config.branding.title, logo_url: config.branding.logoUrl, powered_by: null };
}
