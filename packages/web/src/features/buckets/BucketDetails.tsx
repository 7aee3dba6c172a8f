import { Code } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Bucket } from '../../api/buckets';
import { DetailsTable } from '../../ui/DetailsTable';
import { formatDate } from './format';
import { ProviderLogo } from './ProviderLogo';
import { BUCKET_TEXTS } from './texts';

const T = BUCKET_TEXTS.drawer;

/** A bucket's details: ID, owner, provider, created, imported (and the bucket's URI). */
export function BucketDetails({ bucket }: { bucket: Bucket }) {
  const rows: [string, ReactNode][] = [
    [T.id, <Code key="id">{bucket.id}</Code>],
    [T.uri, <Code key="uri">{bucket.uri}</Code>],
    [T.owner, bucket.owner],
    [
      T.provider,
      <span key="provider" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
        <ProviderLogo provider={bucket.provider} size={18} decorative />
        {BUCKET_TEXTS.providers[bucket.provider]}
      </span>,
    ],
    [T.created, formatDate(bucket.createdAt)],
    [T.imported, bucket.imported ? T.yes : T.no],
  ];
  return <DetailsTable rows={rows} />;
}
