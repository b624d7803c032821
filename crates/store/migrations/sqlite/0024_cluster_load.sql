-- Markets spread over a cluster's nodes by the work they bring, not only by their number
-- (issue 31; backlay_engine's cluster/load.rs). The other engine's 0024_cluster_load.sql is its twin.

-- Each node's calls per second to its markets' tasks, measured over its last window and
-- written by the node itself: what the others compare their own load with.
ALTER TABLE cluster_nodes ADD COLUMN load REAL NOT NULL DEFAULT 0;

-- A market a busy node gives up for a quieter one: free (node_id NULL) but, until
-- offered_until_ms, only the node named in offered_to may take it; after that, anyone. Kept
-- until then once taken too: while any is, no node offers more.
ALTER TABLE cluster_owners ADD COLUMN offered_to TEXT;
ALTER TABLE cluster_owners ADD COLUMN offered_until_ms BIGINT;
