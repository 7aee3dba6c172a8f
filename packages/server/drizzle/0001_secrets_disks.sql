CREATE TABLE "disks" (
	"id" text PRIMARY KEY NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"name" text,
	"storage" bigint NOT NULL,
	"used_bytes" bigint,
	"status" text DEFAULT 'Pending' NOT NULL,
	"owner_id" uuid,
	"life_span" double precision,
	"last_usage" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "secrets" (
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"key" text NOT NULL,
	"sealed" text NOT NULL,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "secrets_cluster_name_org_name_project_name_key_pk" PRIMARY KEY("cluster_name","org_name","project_name","key")
);
--> statement-breakpoint
ALTER TABLE "disks" ADD CONSTRAINT "disks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disks" ADD CONSTRAINT "disks_cluster_name_org_name_project_name_projects_cluster_name_org_name_name_fk" FOREIGN KEY ("cluster_name","org_name","project_name") REFERENCES "public"."projects"("cluster_name","org_name","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_cluster_name_org_name_project_name_projects_cluster_name_org_name_name_fk" FOREIGN KEY ("cluster_name","org_name","project_name") REFERENCES "public"."projects"("cluster_name","org_name","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disks_name" ON "disks" USING btree ("cluster_name","org_name","project_name","name") WHERE "disks"."name" is not null;--> statement-breakpoint
CREATE INDEX "disks_project" ON "disks" USING btree ("cluster_name","org_name","project_name");