import type { BucketProvider } from '@orrery/contract';
import {
  IconBrandAws,
  IconBrandAzure,
  IconBrandGoogle,
  IconCloud,
  IconDatabase,
  IconServer,
  type Icon,
} from '@tabler/icons-react';
import { BUCKET_TEXTS } from './texts';

const LOGO: Record<BucketProvider, Icon> = {
  aws: IconBrandAws,
  minio: IconServer,
  seaweedfs: IconDatabase,
  azure: IconBrandAzure,
  gcp: IconBrandGoogle,
  open_stack: IconCloud,
};

/**
 * The provider's logo; the label names it for screen readers and on hover, unless the logo is
 * decorative because the provider's name is written next to it.
 */
export function ProviderLogo(props: {
  provider: BucketProvider;
  size?: number;
  decorative?: boolean;
}) {
  const { provider, size = 28 } = props;
  const Logo = LOGO[provider];
  const label = BUCKET_TEXTS.providers[provider];
  if (props.decorative) return <Logo size={size} stroke={1.5} aria-hidden />;
  return (
    <Logo
      size={size}
      stroke={1.5}
      role="img"
      aria-label={label}
      title={label}
      style={{ flexShrink: 0 }}
    />
  );
}
