//! What a `GET`/`HEAD` of a file of svc answers, by RFC 9110 alone (no I/O here): the
//! preconditions (`If-Match`, `If-Unmodified-Since`, `If-None-Match`, `If-Modified-Since`,
//! section 13.2.2's order), `Range` (one byte range: 206; several: the whole file, as
//! section 14.2 allows; none satisfiable: 416) and `If-Range`.

use std::time::SystemTime;

use axum::http::{header, HeaderMap, HeaderValue};
use httpdate::HttpDate;

/// What of a request decides the answer, taken from its headers.
#[derive(Debug, Default, Clone)]
pub struct Ask {
    pub range: Option<HeaderValue>,
    pub if_range: Option<HeaderValue>,
    pub if_match: Option<HeaderValue>,
    pub if_none_match: Option<HeaderValue>,
    pub if_modified_since: Option<HeaderValue>,
    pub if_unmodified_since: Option<HeaderValue>,
}

impl Ask {
    pub fn of(headers: &HeaderMap) -> Ask {
        let get = |name| headers.get(name).cloned();
        Ask {
            range: get(header::RANGE),
            if_range: get(header::IF_RANGE),
            if_match: get(header::IF_MATCH),
            if_none_match: get(header::IF_NONE_MATCH),
            if_modified_since: get(header::IF_MODIFIED_SINCE),
            if_unmodified_since: get(header::IF_UNMODIFIED_SINCE),
        }
    }
}

/// The file's validators: its modification time (to the second, as HTTP dates go) and a strong
/// entity tag made of its size, modification time in nanoseconds and inode, so a file replaced
/// under its name (a rebuilt image) gets a new tag even within the same second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validators {
    pub modified: Option<HttpDate>,
    pub etag: String,
}

impl Validators {
    pub fn new(len: u64, modified: Option<SystemTime>, inode: u64) -> Validators {
        let nanos = modified
            .and_then(|m| m.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        Validators {
            modified: modified.map(HttpDate::from),
            etag: format!("\"{len:x}-{nanos:x}-{inode:x}\""),
        }
    }
}

/// The answer's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// 200, the whole file.
    Whole,
    /// 206, bytes `start..=end`.
    Part { start: u64, end: u64 },
    /// 304.
    NotModified,
    /// 412.
    PreconditionFailed,
    /// 416 (`Content-Range: bytes */<len>`).
    Unsatisfiable,
}

/// Decide the answer to `ask` for a file of `len` bytes with validators `v`.
pub fn decide(ask: &Ask, v: &Validators, len: u64) -> Decision {
    // 13.2.2, steps 1–2: the client's own copy must still be current.
    if let Some(h) = &ask.if_match {
        if !etag_matches(h, &v.etag, true) {
            return Decision::PreconditionFailed;
        }
    } else if let Some(since) = ask.if_unmodified_since.as_ref().and_then(date) {
        // A file without a modification time counts as modified.
        if v.modified.is_none_or(|m| m > since) {
            return Decision::PreconditionFailed;
        }
    }
    // Steps 3–4: the client's copy is still current.
    if let Some(h) = &ask.if_none_match {
        if etag_matches(h, &v.etag, false) {
            return Decision::NotModified;
        }
    } else if let Some(since) = ask.if_modified_since.as_ref().and_then(date) {
        if v.modified.is_some_and(|m| m <= since) {
            return Decision::NotModified;
        }
    }
    // Step 5: a range, unless the client's copy it completes is out of date.
    let Some(range) = ask.range.as_ref().and_then(|r| r.to_str().ok()) else {
        return Decision::Whole;
    };
    if let Some(h) = &ask.if_range {
        if !if_range_holds(h, v) {
            return Decision::Whole;
        }
    }
    match parse_range(range, len) {
        Ranged::Ignored => Decision::Whole,
        Ranged::One(start, end) => Decision::Part { start, end },
        Ranged::Unsatisfiable => Decision::Unsatisfiable,
    }
}

fn date(h: &HeaderValue) -> Option<HttpDate> {
    h.to_str().ok()?.trim().parse().ok()
}

/// `If-Range`: an entity tag compared strongly, or exactly the file's `Last-Modified`.
fn if_range_holds(h: &HeaderValue, v: &Validators) -> bool {
    let Ok(s) = h.to_str() else {
        return false;
    };
    let s = s.trim();
    if s.starts_with('"') || s.starts_with("W/") {
        return !s.starts_with("W/") && s == v.etag;
    }
    matches!((date(h), v.modified), (Some(d), Some(m)) if d == m)
}

/// Whether the list of entity tags in `h` (or `*`) names `etag`; weak tags never match when
/// `strong` (If-Match), and match by their opaque part otherwise (If-None-Match).
fn etag_matches(h: &HeaderValue, etag: &str, strong: bool) -> bool {
    let Ok(s) = h.to_str() else {
        return false;
    };
    if s.trim() == "*" {
        return true;
    }
    s.split(',')
        .map(str::trim)
        .any(|tag| match tag.strip_prefix("W/") {
            Some(weak) => !strong && weak == etag,
            None => tag == etag,
        })
}

/// What a `Range` header asks of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranged {
    /// Nothing we serve as a range: another unit, a malformed set (RFC 9110 14.1.1 says to
    /// ignore it), or several ranges of which one at least is satisfiable (answered whole).
    Ignored,
    /// One range, `start..=end`, inside the file.
    One(u64, u64),
    /// No range of the set is inside the file.
    Unsatisfiable,
}

/// One `byte-range-spec` or `suffix-range`; `None` when malformed.
enum Spec {
    From(u64, Option<u64>),
    Suffix(u64),
}

/// Digits only (no sign, no blanks); a number too large for u64 saturates, which keeps its
/// meaning here (a start past any file's end, an end or suffix covering all of it).
fn number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.parse().unwrap_or(u64::MAX))
}

fn spec(s: &str) -> Option<Spec> {
    let (first, last) = s.split_once('-')?;
    if first.is_empty() {
        return number(last).map(Spec::Suffix);
    }
    let first = number(first)?;
    if last.is_empty() {
        return Some(Spec::From(first, None));
    }
    let last = number(last)?;
    (last >= first).then_some(Spec::From(first, Some(last)))
}

/// The bytes `spec` names in a file of `len` bytes, if any.
fn satisfied(spec: &Spec, len: u64) -> Option<(u64, u64)> {
    match *spec {
        Spec::From(first, last) if first < len => {
            Some((first, last.map_or(len - 1, |l| l.min(len - 1))))
        }
        Spec::From(..) => None,
        Spec::Suffix(n) if n > 0 && len > 0 => Some((len - n.min(len), len - 1)),
        Spec::Suffix(_) => None,
    }
}

/// Read a `Range` header (`bytes=0-499`, `bytes=500-`, `bytes=-500`, lists of those) for a file
/// of `len` bytes.
pub fn parse_range(header: &str, len: u64) -> Ranged {
    let Some((unit, set)) = header.split_once('=') else {
        return Ranged::Ignored;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") {
        return Ranged::Ignored;
    }
    // A list may hold empty elements (RFC 9110 5.6.1); a set of none is malformed.
    let mut specs = Vec::new();
    for part in set.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match spec(part) {
            Some(s) => specs.push(s),
            None => return Ranged::Ignored,
        }
    }
    // An empty file has no bytes to name: a suffix asks for all of it (the whole, empty file).
    if len == 0 && specs.iter().any(|s| matches!(s, Spec::Suffix(n) if *n > 0)) {
        return Ranged::Ignored;
    }
    let mut inside = specs.iter().filter_map(|s| satisfied(s, len));
    match (specs.len(), inside.next()) {
        (0, _) => Ranged::Ignored,
        (_, None) => Ranged::Unsatisfiable,
        (1, Some((start, end))) => Ranged::One(start, end),
        _ => Ranged::Ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn ranges_of_every_form() {
        let r = |h| parse_range(h, 1000);
        assert_eq!(r("bytes=0-499"), Ranged::One(0, 499));
        assert_eq!(r("bytes=500-999"), Ranged::One(500, 999));
        assert_eq!(r("bytes=999-999"), Ranged::One(999, 999), "the last byte");
        assert_eq!(
            r("bytes=900-5000"),
            Ranged::One(900, 999),
            "clipped at the end"
        );
        assert_eq!(r("bytes=100-"), Ranged::One(100, 999), "open range");
        assert_eq!(r("bytes=-500"), Ranged::One(500, 999), "suffix");
        assert_eq!(
            r("bytes=-5000"),
            Ranged::One(0, 999),
            "suffix longer than the file"
        );
        assert_eq!(r("Bytes = 1-2"), Ranged::One(1, 2), "unit case and blanks");
        assert_eq!(r("bytes=1-2,"), Ranged::One(1, 2), "an empty list element");
        assert_eq!(
            r("bytes=0-99999999999999999999999"),
            Ranged::One(0, 999),
            "an end beyond u64"
        );
        // Unsatisfiable: 416.
        assert_eq!(r("bytes=1000-1100"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=1000-"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=-0"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=99999999999999999999999-"), Ranged::Unsatisfiable);
        assert_eq!(r("bytes=2000-2001,3000-3001"), Ranged::Unsatisfiable);
        // Malformed or another unit: ignored, the whole file.
        for bad in [
            "bytes=500-100",
            "bytes=a-b",
            "bytes=-",
            "bytes=",
            "bytes=1-2-3",
            "bytes=+1-2",
            "bytes= 1 - 2",
            "items=0-1",
            "0-1",
            "bytes=0-1,x",
        ] {
            assert_eq!(r(bad), Ranged::Ignored, "{bad}");
        }
        // Several ranges: the whole file (RFC 9110 14.2 lets a server ignore Range).
        assert_eq!(r("bytes=0-1,5-6"), Ranged::Ignored);
        assert_eq!(r("bytes=0-1,2000-3000"), Ranged::Ignored);
        // An empty file.
        assert_eq!(parse_range("bytes=0-", 0), Ranged::Unsatisfiable);
        assert_eq!(parse_range("bytes=-10", 0), Ranged::Ignored);
    }

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn hv(s: &str) -> Option<HeaderValue> {
        Some(HeaderValue::from_str(s).unwrap())
    }

    #[test]
    fn preconditions_in_the_order_of_rfc_9110() {
        let modified = at(1_700_000_000) + Duration::from_millis(250);
        let v = Validators::new(1000, Some(modified), 42);
        assert_eq!(v.etag, "\"3e8-17979cfe4510b280-2a\"");
        let last = fmt(v.modified.unwrap());
        let earlier = httpdate::fmt_http_date(at(1_600_000_000));
        let later = httpdate::fmt_http_date(at(1_800_000_000));
        let d = |ask: Ask| decide(&ask, &v, 1000);

        assert_eq!(d(Ask::default()), Decision::Whole);
        // If-None-Match / If-Modified-Since: 304 while the client's copy is current.
        for tag in [v.etag.as_str(), "*", "\"x\", W/\"3e8-17979cfe4510b280-2a\""] {
            let ask = Ask {
                if_none_match: hv(tag),
                ..Ask::default()
            };
            assert_eq!(d(ask), Decision::NotModified, "{tag}");
        }
        let other_tag = Ask {
            if_none_match: hv("\"other\""),
            // If-None-Match wins over If-Modified-Since.
            if_modified_since: hv(&last),
            ..Ask::default()
        };
        assert_eq!(d(other_tag), Decision::Whole);
        for (since, answer) in [
            (&last, Decision::NotModified),
            (&later, Decision::NotModified),
            (&earlier, Decision::Whole),
        ] {
            let ask = Ask {
                if_modified_since: hv(since),
                ..Ask::default()
            };
            assert_eq!(d(ask), answer, "{since}");
        }
        let garbage = Ask {
            if_modified_since: hv("yesterday"),
            ..Ask::default()
        };
        assert_eq!(d(garbage), Decision::Whole, "an unreadable date is ignored");

        // If-Match / If-Unmodified-Since: 412 when the client's copy is out of date.
        let ask = Ask {
            if_match: hv("W/\"3e8-17979cfe4510b280-2a\""),
            ..Ask::default()
        };
        assert_eq!(d(ask), Decision::PreconditionFailed, "weak never matches");
        let ask = Ask {
            if_match: hv(&format!("\"a\", {}", v.etag)),
            // If-Match wins over If-Unmodified-Since.
            if_unmodified_since: hv(&earlier),
            ..Ask::default()
        };
        assert_eq!(d(ask), Decision::Whole);
        for (since, answer) in [
            (&earlier, Decision::PreconditionFailed),
            (&last, Decision::Whole),
            (&later, Decision::Whole),
        ] {
            let ask = Ask {
                if_unmodified_since: hv(since),
                ..Ask::default()
            };
            assert_eq!(d(ask), answer, "{since}");
        }

        // If-Range: the range only while the client's copy is the file's.
        let range = |if_range: Option<&str>| Ask {
            range: hv("bytes=10-19"),
            if_range: if_range.and_then(hv),
            ..Ask::default()
        };
        let part = Decision::Part { start: 10, end: 19 };
        assert_eq!(d(range(None)), part);
        assert_eq!(d(range(Some(&v.etag))), part);
        assert_eq!(d(range(Some(&last))), part);
        assert_eq!(d(range(Some("\"other\""))), Decision::Whole);
        assert_eq!(
            d(range(Some("W/\"3e8-17979cfe4510b280-2a\""))),
            Decision::Whole
        );
        assert_eq!(d(range(Some(&earlier))), Decision::Whole);
        assert_eq!(d(range(Some(&later))), Decision::Whole);
        // A 304 goes before the range.
        let ask = Ask {
            if_none_match: hv(&v.etag),
            ..range(None)
        };
        assert_eq!(d(ask), Decision::NotModified);
        let ask = Ask {
            range: hv("bytes=5000-"),
            ..Ask::default()
        };
        assert_eq!(d(ask), Decision::Unsatisfiable);
    }

    fn fmt(d: HttpDate) -> String {
        d.to_string()
    }
}
