CREATE TABLE "credit_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_name" text NOT NULL REFERENCES "organizations"("name") ON DELETE cascade,
	"kind" text NOT NULL,
	"credits" numeric(20, 4) NOT NULL,
	"balance_after" numeric(20, 4),
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "credit_ledger_org_time" ON "credit_ledger" ("org_name","created_at");
