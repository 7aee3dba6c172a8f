CREATE TABLE "cluster_members" (
	"cluster_name" text NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cluster_members_cluster_name_user_id_pk" PRIMARY KEY("cluster_name","user_id")
);
--> statement-breakpoint
CREATE TABLE "cluster_orgs" (
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"quota_total_running_jobs" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cluster_orgs_cluster_name_org_name_pk" PRIMARY KEY("cluster_name","org_name")
);
--> statement-breakpoint
CREATE TABLE "clusters" (
	"name" text PRIMARY KEY NOT NULL,
	"location" text,
	"logo_url" text,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_pools" (
	"cluster_name" text NOT NULL,
	"name" text NOT NULL,
	"min_size" integer NOT NULL,
	"max_size" integer NOT NULL,
	"idle_size" integer DEFAULT 0 NOT NULL,
	"cpu" double precision NOT NULL,
	"memory" bigint NOT NULL,
	"disk_size" bigint NOT NULL,
	"is_preemptible" boolean DEFAULT false NOT NULL,
	"cpu_min_watts" double precision DEFAULT 0 NOT NULL,
	"cpu_max_watts" double precision DEFAULT 0 NOT NULL,
	"gpus" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "node_pools_cluster_name_name_pk" PRIMARY KEY("cluster_name","name")
);
--> statement-breakpoint
CREATE TABLE "oidc_payloads" (
	"id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_type_id_pk" PRIMARY KEY("type","id")
);
--> statement-breakpoint
CREATE TABLE "org_members" (
	"org_name" text NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"credits" numeric(20, 4),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_members_org_name_user_id_pk" PRIMARY KEY("org_name","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"name" text PRIMARY KEY NOT NULL,
	"credits" numeric(20, 4),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"user_id" uuid NOT NULL,
	"uri" text NOT NULL,
	"action" text NOT NULL,
	"granted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permissions_user_id_uri_pk" PRIMARY KEY("user_id","uri")
);
--> statement-breakpoint
CREATE TABLE "presets" (
	"cluster_name" text NOT NULL,
	"name" text NOT NULL,
	"cpu" double precision NOT NULL,
	"memory" bigint NOT NULL,
	"credits_per_hour" numeric(20, 4) NOT NULL,
	"is_preemptible" boolean DEFAULT false NOT NULL,
	"scheduler_enabled" boolean DEFAULT false NOT NULL,
	"gpus" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"resource_pool_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "presets_cluster_name_name_pk" PRIMARY KEY("cluster_name","name")
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"default_role" text DEFAULT 'writer' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"terms_accepted_at" timestamp with time zone,
	"system_role" text,
	"picture" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "cluster_members" ADD CONSTRAINT "cluster_members_cluster_name_clusters_name_fk" FOREIGN KEY ("cluster_name") REFERENCES "public"."clusters"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_members" ADD CONSTRAINT "cluster_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_orgs" ADD CONSTRAINT "cluster_orgs_cluster_name_clusters_name_fk" FOREIGN KEY ("cluster_name") REFERENCES "public"."clusters"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_orgs" ADD CONSTRAINT "cluster_orgs_org_name_organizations_name_fk" FOREIGN KEY ("org_name") REFERENCES "public"."organizations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_pools" ADD CONSTRAINT "node_pools_cluster_name_clusters_name_fk" FOREIGN KEY ("cluster_name") REFERENCES "public"."clusters"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_org_name_organizations_name_fk" FOREIGN KEY ("org_name") REFERENCES "public"."organizations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permissions" ADD CONSTRAINT "permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permissions" ADD CONSTRAINT "permissions_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presets" ADD CONSTRAINT "presets_cluster_name_clusters_name_fk" FOREIGN KEY ("cluster_name") REFERENCES "public"."clusters"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_cluster_name_clusters_name_fk" FOREIGN KEY ("cluster_name") REFERENCES "public"."clusters"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_org_name_organizations_name_fk" FOREIGN KEY ("org_name") REFERENCES "public"."organizations"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant" ON "oidc_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid" ON "oidc_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "org_members_user" ON "org_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "permissions_uri" ON "permissions" USING btree ("uri");--> statement-breakpoint
CREATE INDEX "project_members_user" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_path" ON "projects" USING btree ("cluster_name","org_name","name");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower" ON "users" USING btree (lower("email"));