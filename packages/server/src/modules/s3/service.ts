import { join } from 'node:path';
import { BucketStore } from './store.js';

/** The embedded endpoint's buckets of a server: directories under its data directory. */
export const bucketStoreOf = (dataDir: string) => new BucketStore(join(dataDir, 'buckets'));
