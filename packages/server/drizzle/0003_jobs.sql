CREATE TABLE "job_statuses" (
	"job_id" text NOT NULL,
	"seq" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"description" text,
	"exit_code" integer,
	"transition_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_statuses_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"owner_id" uuid,
	"owner" text NOT NULL,
	"name" text,
	"description" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"preset_name" text,
	"status" text NOT NULL,
	"reason" text,
	"status_description" text,
	"exit_code" integer,
	"restarts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"container" jsonb NOT NULL,
	"restart_policy" text DEFAULT 'never' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"scheduler_enabled" boolean DEFAULT false NOT NULL,
	"pass_config" boolean DEFAULT false NOT NULL,
	"privileged" boolean DEFAULT false NOT NULL,
	"preemptible" boolean DEFAULT false NOT NULL,
	"wait_for_jobs_quota" boolean DEFAULT false NOT NULL,
	"max_run_time_minutes" integer,
	"schedule_timeout" double precision,
	"energy_schedule_name" text,
	"price_per_hour" numeric(20, 4) DEFAULT '0' NOT NULL,
	"total_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"billed_until" timestamp with time zone,
	"runtime" text NOT NULL,
	"materialized" boolean DEFAULT false NOT NULL,
	"logs_removed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"user_id" uuid,
	"resource_uri" text NOT NULL,
	"preset_name" text,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"credits" numeric(20, 4) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_statuses" ADD CONSTRAINT "job_statuses_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_cluster_name_org_name_project_name_projects_cluster_name_org_name_name_fk" FOREIGN KEY ("cluster_name","org_name","project_name") REFERENCES "public"."projects"("cluster_name","org_name","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_project_created" ON "jobs" USING btree ("cluster_name","org_name","project_name","created_at");--> statement-breakpoint
CREATE INDEX "jobs_status" ON "jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "jobs_name" ON "jobs" USING btree ("cluster_name","org_name","project_name","name");--> statement-breakpoint
CREATE INDEX "usage_org_time" ON "usage_records" USING btree ("org_name","started_at");--> statement-breakpoint
CREATE INDEX "usage_resource" ON "usage_records" USING btree ("resource_uri");