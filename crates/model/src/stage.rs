//! The stages of an install and which moves between them are allowed.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a host's install is. Each image build starts a new run at `media-ready`; the rest
/// follow what Bootsmith did (deploy, power) and what it saw served from svc and called back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The host's install media were built.
    MediaReady,
    /// Its service profile (or mapping) was written to the manager.
    Deployed,
    /// Its management controller fetched its install media from svc.
    MediaMounted,
    /// Bootsmith powered the server on (or cycled it) to boot from the media.
    Booting,
    /// Its installer fetches the install tree from the host's own address.
    Installing,
    /// Its installer called back: done.
    Installed,
    /// Its installer reported a failure, or a stage ran out of time.
    Failed,
}

/// Every stage, in lifecycle order.
pub const ALL: [Stage; 7] = [
    Stage::MediaReady,
    Stage::Deployed,
    Stage::MediaMounted,
    Stage::Booting,
    Stage::Installing,
    Stage::Installed,
    Stage::Failed,
];

impl Stage {
    /// The name the API and the store use (`media-ready`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::MediaReady => "media-ready",
            Stage::Deployed => "deployed",
            Stage::MediaMounted => "media-mounted",
            Stage::Booting => "booting",
            Stage::Installing => "installing",
            Stage::Installed => "installed",
            Stage::Failed => "failed",
        }
    }

    /// The stage named `s` as stored.
    pub fn parse(s: &str) -> Option<Stage> {
        ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The install is over, one way or the other.
    pub fn is_final(self) -> bool {
        matches!(self, Stage::Installed | Stage::Failed)
    }

    /// May a host at `from` (None: nothing known) move to `self`? A new build or deploy starts
    /// over; what is seen on the wire only moves forward, so a late fetch of the boot ISO does
    /// not take an installing host back; an install that ended stays ended until the next build
    /// or deploy, except that the installer's own `installed` call is believed even after a
    /// timeout gave up on it.
    pub fn may_follow(self, from: Option<Stage>) -> bool {
        use Stage::*;
        let Some(from) = from else { return true };
        match self {
            MediaReady | Deployed => true,
            MediaMounted => matches!(from, MediaReady | Deployed),
            Booting => matches!(from, MediaReady | Deployed | MediaMounted),
            Installing => !from.is_final(),
            Installed => from != Installed,
            Failed => !from.is_final(),
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Stage::*;
    use super::*;

    #[test]
    fn names_round_trip_and_match_serde() {
        for s in ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::json!(s.as_str())
            );
        }
        assert_eq!(Stage::parse("done"), None);
    }

    #[test]
    fn what_is_seen_on_the_wire_only_moves_forward() {
        assert!(MediaMounted.may_follow(Some(Deployed)));
        assert!(!MediaMounted.may_follow(Some(Installing)));
        assert!(!Booting.may_follow(Some(Installing)));
        assert!(Installing.may_follow(Some(Installing)));
        assert!(!Installing.may_follow(Some(Installed)));
        assert!(!Failed.may_follow(Some(Installed)));
        assert!(
            Installed.may_follow(Some(Failed)),
            "a late callback wins over a timeout"
        );
        assert!(!Installed.may_follow(Some(Installed)));
        assert!(
            MediaReady.may_follow(Some(Installed)),
            "a new build starts over"
        );
        assert!(Deployed.may_follow(Some(Failed)));
    }
}
