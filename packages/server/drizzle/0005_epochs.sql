CREATE TABLE "epochs" (
	"name" text PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);--> statement-breakpoint
INSERT INTO "epochs" ("name", "value") VALUES ('access', 0), ('secrets', 0), ('jobs', 0);--> statement-breakpoint
-- Statement-level: one bump per statement, in the writing transaction, so a reader that sees the
-- new value also sees the change. Cascaded deletes and set-nulls fire the triggers of their tables.
CREATE FUNCTION "orrery_bump_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "epochs" SET "value" = "value" + 1 WHERE "name" = TG_ARGV[0];
  PERFORM pg_notify('orrery_epoch', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
-- Credits (spent by accounting ticks) and quotas grant nothing: their updates do not count.
CREATE TRIGGER "org_members_epoch" AFTER INSERT OR UPDATE OF "org_name", "user_id", "role" OR DELETE OR TRUNCATE ON "org_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "cluster_members_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "cluster_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "project_members_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "project_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "permissions_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "permissions" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "cluster_orgs_epoch" AFTER INSERT OR UPDATE OF "cluster_name", "org_name" OR DELETE OR TRUNCATE ON "cluster_orgs" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "projects_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
-- Organizations and clusters count by existence: an organization's credits change with every
-- accounting tick.
CREATE TRIGGER "organizations_epoch" AFTER INSERT OR DELETE OR TRUNCATE ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "clusters_epoch" AFTER INSERT OR DELETE OR TRUNCATE ON "clusters" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('access');--> statement-breakpoint
CREATE TRIGGER "secrets_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "secrets" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('secrets');--> statement-breakpoint
CREATE TRIGGER "jobs_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "jobs" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('jobs');--> statement-breakpoint
CREATE TRIGGER "job_statuses_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "job_statuses" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_epoch"('jobs');
