-- Plans the assistant proposed (modules/assistant/tables.ts): performed only when confirmed.
CREATE TABLE "assistant_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"title" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"body" jsonb,
	"cluster_name" text NOT NULL,
	"org_name" text NOT NULL,
	"project_name" text NOT NULL,
	"credits_per_hour" text,
	"result_url" text,
	"done_message" text NOT NULL,
	"confirmation_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "assistant_plans_expires" ON "assistant_plans" ("expires_at");
