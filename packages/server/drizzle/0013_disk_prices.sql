-- A cluster's price of disks, in credits per gigabyte (10^9 bytes) of a disk's size and day; 0
-- charges nothing. Disks are metered hourly at a 24th of it (modules/billing/disk-sampler.ts).
ALTER TABLE "clusters" ADD COLUMN "disk_credits_per_day_per_gb" numeric(20, 4) NOT NULL DEFAULT '0';
