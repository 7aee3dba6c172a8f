-- The usage query reads one organization's records of a period and sums them by cluster, project,
-- category, user and day: with these columns included the rows come from the index alone.
CREATE INDEX "usage_org_time_cover" ON "usage_records" ("org_name","started_at") INCLUDE ("cluster_name","project_name","category","user_id","credits");--> statement-breakpoint
-- Apolo's metrics call for a system administrator reads a period of every organization.
CREATE INDEX "usage_time" ON "usage_records" ("started_at");
