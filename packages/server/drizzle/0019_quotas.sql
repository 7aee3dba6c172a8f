CREATE TABLE "org_quotas" (
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"nominal" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"borrowing_limit" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_quotas_cluster_name_org_name_pk" PRIMARY KEY("cluster_name","org_name")
);
--> statement-breakpoint
CREATE TABLE "project_quotas" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"nominal" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"borrowing_limit" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "org_quotas" ADD CONSTRAINT "org_quotas_cluster_org_fk" FOREIGN KEY ("cluster_name","org_name") REFERENCES "public"."cluster_orgs"("cluster_name","org_name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_quotas" ADD CONSTRAINT "project_quotas_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;