-- Counters of the sign-in pages' rate limits (auth/oidc/rate-limit-store.ts), shared by every
-- replica: one row per route and key (address and e-mail), counting hits until `window_ends`.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "rate_limits_window_ends" ON "rate_limits" ("window_ends");
