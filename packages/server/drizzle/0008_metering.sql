-- What was charged, by name: the job's id, the app instance's name, the storage volume's name.
ALTER TABLE "usage_records" ADD COLUMN "resource_id" text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE "usage_records" SET "resource_id" = regexp_replace("resource_uri", '^.*/', '');--> statement-breakpoint
-- A resource is charged once per period start: a second replica's or a retried charge of the
-- same period inserts nothing (metering.ts).
CREATE UNIQUE INDEX "usage_resource_period" ON "usage_records" ("resource_uri","started_at");
--> statement-breakpoint
-- The unique index serves lookups by resource as well.
DROP INDEX "usage_resource";
