-- The assistant's model per organization (modules/assistant/model/tables.ts): the llm-inference
-- app an organization manager chose; without a row the configured endpoint, if any, answers.
CREATE TABLE "assistant_org_models" (
	"org_name" text PRIMARY KEY NOT NULL REFERENCES "organizations"("name") ON DELETE cascade,
	"app_instance_id" uuid NOT NULL REFERENCES "app_instances"("id") ON DELETE cascade,
	"set_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
