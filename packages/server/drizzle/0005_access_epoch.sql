CREATE TABLE "access_epoch" (
	"id" integer PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "access_epoch" ("id", "value") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "orrery_bump_access_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_epoch" SET "value" = "value" + 1 WHERE "id" = 1;
  PERFORM pg_notify('orrery_access', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_access_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
-- Credits (a limit spent by accounting ticks) and quotas grant nothing: their updates do not count.
CREATE TRIGGER "org_members_access_epoch" AFTER INSERT OR UPDATE OF "org_name", "user_id", "role" OR DELETE OR TRUNCATE ON "org_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "cluster_members_access_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "cluster_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "project_members_access_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "project_members" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "permissions_access_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "permissions" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "cluster_orgs_access_epoch" AFTER INSERT OR UPDATE OF "cluster_name", "org_name" OR DELETE OR TRUNCATE ON "cluster_orgs" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "projects_access_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
-- Organizations and clusters only by existence: an organization's credits change with every
-- accounting tick, which would empty the caches for nothing.
CREATE TRIGGER "organizations_access_epoch" AFTER INSERT OR DELETE OR TRUNCATE ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();--> statement-breakpoint
CREATE TRIGGER "clusters_access_epoch" AFTER INSERT OR DELETE OR TRUNCATE ON "clusters" FOR EACH STATEMENT EXECUTE FUNCTION "orrery_bump_access_epoch"();
