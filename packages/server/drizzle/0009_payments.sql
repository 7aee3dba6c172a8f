CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "purchases" (
	"session_id" text PRIMARY KEY NOT NULL,
	"org_name" text NOT NULL REFERENCES "organizations"("name") ON DELETE cascade,
	"credits" integer NOT NULL,
	"amount_in_cents" integer NOT NULL,
	"provider" text NOT NULL,
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "test_checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_name" text NOT NULL REFERENCES "organizations"("name") ON DELETE cascade,
	"credits" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
