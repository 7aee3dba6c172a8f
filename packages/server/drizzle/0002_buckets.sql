CREATE TABLE "bucket_credential_buckets" (
	"credential_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	CONSTRAINT "bucket_credential_buckets_credential_id_bucket_id_pk" PRIMARY KEY("credential_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "bucket_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"name" text,
	"read_only" boolean DEFAULT false NOT NULL,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buckets" (
	"id" text PRIMARY KEY NOT NULL,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"name" text,
	"provider" text NOT NULL,
	"provider_bucket_name" text NOT NULL,
	"imported" boolean DEFAULT false NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"sealed_credentials" text,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bucket_credential_buckets" ADD CONSTRAINT "bucket_credential_buckets_credential_id_bucket_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."bucket_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_credential_buckets" ADD CONSTRAINT "bucket_credential_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_credentials" ADD CONSTRAINT "bucket_credentials_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_credentials" ADD CONSTRAINT "bucket_credentials_cluster_name_org_name_project_name_projects_cluster_name_org_name_name_fk" FOREIGN KEY ("cluster_name","org_name","project_name") REFERENCES "public"."projects"("cluster_name","org_name","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_cluster_name_org_name_project_name_projects_cluster_name_org_name_name_fk" FOREIGN KEY ("cluster_name","org_name","project_name") REFERENCES "public"."projects"("cluster_name","org_name","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bucket_credential_buckets_bucket" ON "bucket_credential_buckets" USING btree ("bucket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bucket_credentials_name" ON "bucket_credentials" USING btree ("cluster_name","org_name","project_name","name") WHERE "bucket_credentials"."name" is not null;--> statement-breakpoint
CREATE INDEX "bucket_credentials_project" ON "bucket_credentials" USING btree ("cluster_name","org_name","project_name");--> statement-breakpoint
CREATE UNIQUE INDEX "buckets_name" ON "buckets" USING btree ("cluster_name","org_name","project_name","name") WHERE "buckets"."name" is not null;--> statement-breakpoint
CREATE INDEX "buckets_project" ON "buckets" USING btree ("cluster_name","org_name","project_name");