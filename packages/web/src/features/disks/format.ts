import type { Disk } from '../../api/disks';
import { formatSize } from '../../ui/sizes';
import { DISK_TEXTS } from './texts';

export const STATUS_COLOR: Record<Disk['status'], string> = {
  Pending: 'yellow',
  Ready: 'green',
  Broken: 'red',
};

export const diskLabel = (d: Disk) => d.name ?? d.id;

/** "Used / Storage", e.g. `1.2 GB / 10 GB`; usage is unknown until the server measured it. */
export const usageOf = (d: Disk) =>
  `${d.usedBytes === null ? DISK_TEXTS.unknownUsage : formatSize(d.usedBytes)} / ${formatSize(d.storage)}`;

export { formatDate } from '../../ui/dates';
