-- Node-pool utilisation over time (the clusters' reports): one row per pool every five minutes,
-- keyed so that two replicas sampling the same five minutes write one row.
CREATE TABLE "pool_samples" (
	"cluster_name" text NOT NULL REFERENCES "clusters"("name") ON DELETE cascade,
	"pool_name" text NOT NULL,
	"sampled_at" timestamp with time zone NOT NULL,
	"cpu_used" real NOT NULL,
	"cpu_total" real NOT NULL,
	"memory_used" bigint NOT NULL,
	"memory_total" bigint NOT NULL,
	"gpu_used" integer NOT NULL,
	"gpu_total" integer NOT NULL,
	CONSTRAINT "pool_samples_pk" PRIMARY KEY("cluster_name","pool_name","sampled_at")
);
