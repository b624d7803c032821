//! The open-files limit against the connection cap.
//!
//! Every connection holds a socket, and one more descriptor while it is sent a file of the web
//! app; the database connections, the listener and the files the server keeps open need a few
//! hundred more. A server that runs out of descriptors cannot accept anyone, so at start the
//! soft limit is raised towards the hard one as far as the cap needs (as Go's runtime and many
//! servers do), and when even the hard limit cannot hold one socket per connection plus the
//! reserve, the cap is lowered to what it can, with a warning naming the `ulimit -n` to set.

/// Descriptors kept for everything but the connections' sockets.
pub const RESERVED_FILES: u64 = 256;

/// What `ulimit -n` should be for `max_connections`: a socket and a file each, plus the reserve.
pub fn recommended_limit(max_connections: u64) -> u64 {
    max_connections.saturating_mul(2).saturating_add(RESERVED_FILES)
}

/// The connection cap the open-files limit can carry, after raising the soft limit as far as
/// the cap wants and the hard limit allows.
#[cfg(unix)]
pub fn fit_connections(max_connections: usize) -> usize {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

    let wanted = recommended_limit(max_connections as u64);
    let limit = getrlimit(Resource::Nofile);
    let hard = limit.maximum.unwrap_or(u64::MAX);
    let mut soft = limit.current.unwrap_or(u64::MAX);
    if soft < wanted {
        let raised = wanted.min(hard);
        if setrlimit(Resource::Nofile, Rlimit { current: Some(raised), maximum: limit.maximum })
            .is_ok()
        {
            soft = raised;
        }
    }
    if soft >= wanted {
        return max_connections;
    }
    let fits = usize::try_from(soft.saturating_sub(RESERVED_FILES))
        .unwrap_or(usize::MAX)
        .clamp(1, max_connections);
    if fits < max_connections {
        tracing::warn!(
            "the open-files limit ({soft}) cannot hold {max_connections} connections: serving at most {fits} at once; \
             raise it to {wanted} (ulimit -n {wanted}, or LimitNOFILE={wanted} under systemd)"
        );
    } else {
        tracing::warn!(
            "the open-files limit ({soft}) is below the {wanted} that {max_connections} connections may need \
             while they are sent files; raise it (ulimit -n {wanted}, or LimitNOFILE={wanted} under systemd)"
        );
    }
    fits
}

#[cfg(not(unix))]
pub fn fit_connections(max_connections: usize) -> usize {
    max_connections
}
