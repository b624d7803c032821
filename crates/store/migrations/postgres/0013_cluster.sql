-- Several servers on one database (issue 16); the other engine's 0013_cluster.sql is its twin.
-- Only PostgreSQL runs more than one node; SQLite gets the same tables so that the two schemas
-- stay one (a SQLite server never writes them).

-- The servers of the cluster. A node renews its lease (expires_at_ms, in the database's clock)
-- every third of its length; one whose lease has passed is dead to the others, and its markets
-- and tables are taken over. A node that finds its own lease passed joins again under a new id.
CREATE TABLE cluster_nodes (
    node_id         TEXT PRIMARY KEY,
    -- Where the other nodes reach this one to forward a command (its internal base URL).
    url             TEXT NOT NULL,
    started_at_ms   BIGINT NOT NULL,
    expires_at_ms   BIGINT NOT NULL
);

-- Who owns what: 'market:<id>', 'table:<casino game id>', 'leader'. node_id NULL: free. token
-- grows by one at each take-over (the fencing token): the owner's every write checks that the
-- row still names it with its token, so a node that lost a resource cannot commit to it.
CREATE TABLE cluster_owners (
    resource        TEXT PRIMARY KEY,
    node_id         TEXT,
    token           BIGINT NOT NULL
);
CREATE INDEX cluster_owners_node ON cluster_owners (node_id);
