-- Project tokens (modules/tokens/tables.ts): a service account per token, a user of its own that
-- is a member of one project with the token's role. Only a SHA-256 of the token is kept.
CREATE TABLE "project_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "project_tokens_hash" ON "project_tokens" ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "project_tokens_user" ON "project_tokens" ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_tokens_live_name" ON "project_tokens" ("project_id", "name") WHERE "revoked_at" IS NULL;
