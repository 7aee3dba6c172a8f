CREATE TABLE "app_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"template_name" text NOT NULL,
	"template_version" text NOT NULL,
	"state" text NOT NULL,
	"creator_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"creator" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"preset_name" text NOT NULL,
	"step" text,
	"step_since" timestamp with time zone,
	"step_message" text,
	"last_activity_at" timestamp with time zone,
	"idle_stopped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "app_instances_place" ON "app_instances" ("cluster_name","org_name","project_name");--> statement-breakpoint
-- A name is unique among the project's instances that are not uninstalled: a reinstall may take it
-- again, and so finds the same persistent home.
CREATE UNIQUE INDEX "app_instances_name" ON "app_instances" ("cluster_name","org_name","project_name","name") WHERE "state" <> 'uninstalled';--> statement-breakpoint
CREATE TABLE "app_revisions" (
	"instance_id" uuid NOT NULL REFERENCES "app_instances"("id") ON DELETE cascade,
	"number" integer NOT NULL,
	"template_version" text NOT NULL,
	"input" jsonb NOT NULL,
	"resolved" jsonb NOT NULL,
	"health" jsonb,
	"creator" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"end_at" timestamp with time zone,
	PRIMARY KEY ("instance_id","number")
);--> statement-breakpoint
CREATE TABLE "app_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"instance_id" uuid NOT NULL REFERENCES "app_instances"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"message" text,
	"resources" jsonb DEFAULT '[]'::jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "app_events_instance" ON "app_events" ("instance_id","seq");--> statement-breakpoint
CREATE TABLE "app_links" (
	"instance_id" uuid NOT NULL REFERENCES "app_instances"("id") ON DELETE cascade,
	"field" text NOT NULL,
	"target_id" uuid NOT NULL REFERENCES "app_instances"("id") ON DELETE cascade,
	"path" text NOT NULL,
	PRIMARY KEY ("instance_id","field")
);--> statement-breakpoint
CREATE INDEX "app_links_target" ON "app_links" ("target_id");
