CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_name" text NOT NULL REFERENCES "organizations"("name") ON DELETE cascade,
	"project_name" text DEFAULT '' NOT NULL,
	"credits" numeric(20, 4) NOT NULL,
	"thresholds" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_scope" ON "budgets" ("org_name","project_name");--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL REFERENCES "budgets"("id") ON DELETE cascade,
	"period" text NOT NULL,
	"threshold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "budget_alerts_once" ON "budget_alerts" ("budget_id","period","threshold");
