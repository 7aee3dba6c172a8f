-- The flow API's store (modules/flows/tables.ts): flow projects and what hangs off them.
CREATE TABLE "flow_projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner" text NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_projects_place_name" ON "flow_projects" ("cluster_name","org_name","project_name","name");--> statement-breakpoint
CREATE TABLE "flow_live_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "flow_projects"("id") ON DELETE cascade,
	"yaml_id" text NOT NULL,
	"multi" boolean DEFAULT false NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"raw_id" text
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_live_jobs_yaml" ON "flow_live_jobs" ("project_id","yaml_id");--> statement-breakpoint
CREATE TABLE "flow_bakes" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "flow_projects"("id") ON DELETE cascade,
	"name" text,
	"batch" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"graphs" jsonb NOT NULL,
	"params" jsonb,
	"meta" jsonb NOT NULL,
	"creator_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_bakes_name" ON "flow_bakes" ("project_id","name") WHERE "name" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "flow_bakes_project" ON "flow_bakes" ("project_id","created_at");--> statement-breakpoint
CREATE TABLE "flow_config_files" (
	"id" text PRIMARY KEY NOT NULL,
	"bake_id" text NOT NULL REFERENCES "flow_bakes"("id") ON DELETE cascade,
	"filename" text NOT NULL,
	"content" text NOT NULL
);--> statement-breakpoint
CREATE INDEX "flow_config_files_bake" ON "flow_config_files" ("bake_id");--> statement-breakpoint
CREATE TABLE "flow_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"bake_id" text NOT NULL REFERENCES "flow_bakes"("id") ON DELETE cascade,
	"number" integer NOT NULL,
	"result" text NOT NULL,
	"executor_id" text,
	"configs_meta" jsonb NOT NULL,
	"engine" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_attempts_number" ON "flow_attempts" ("bake_id","number");--> statement-breakpoint
CREATE TABLE "flow_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"attempt_id" text NOT NULL REFERENCES "flow_attempts"("id") ON DELETE cascade,
	"yaml_id" text NOT NULL,
	"raw_id" text,
	"outputs" jsonb,
	"state" jsonb,
	"statuses" jsonb NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_tasks_yaml" ON "flow_tasks" ("attempt_id","yaml_id");--> statement-breakpoint
CREATE TABLE "flow_cache_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "flow_projects"("id") ON DELETE cascade,
	"batch" text NOT NULL,
	"task_id" text NOT NULL,
	"key" text NOT NULL,
	"outputs" jsonb NOT NULL,
	"state" jsonb NOT NULL,
	"raw_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_cache_entries_key" ON "flow_cache_entries" ("project_id","task_id","batch","key");--> statement-breakpoint
CREATE TABLE "flow_bake_images" (
	"id" text PRIMARY KEY NOT NULL,
	"bake_id" text NOT NULL REFERENCES "flow_bakes"("id") ON DELETE cascade,
	"ref" text NOT NULL,
	"status" text NOT NULL,
	"yaml_defs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"context_on_storage" text,
	"dockerfile_rel" text,
	"builder_job_id" text,
	"prefix" text,
	"yaml_id" text
);--> statement-breakpoint
CREATE UNIQUE INDEX "flow_bake_images_ref" ON "flow_bake_images" ("bake_id","ref");
