//! Moments as values: a UTC time that reads and writes itself as RFC 3339 to a fixed
//! precision, so the wire's text stays what it was and a store column of them sorts as text.
//! A schema names one as `#[schema(value_type = String, format = DateTime)]`.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

/// How many digits of the second a kind of moment keeps when written.
pub trait Precision {
    /// chrono's name for it.
    const FORMAT: SecondsFormat;
}

/// Whole seconds: when media were built, objects deployed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Secs {}
/// Milliseconds: an install's stages and fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Millis {}
/// Microseconds: jobs, which a script starts many of in the same millisecond and lists by
/// start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Micros {}

impl Precision for Secs {
    const FORMAT: SecondsFormat = SecondsFormat::Secs;
}
impl Precision for Millis {
    const FORMAT: SecondsFormat = SecondsFormat::Millis;
}
impl Precision for Micros {
    const FORMAT: SecondsFormat = SecondsFormat::Micros;
}

/// A moment in UTC, written as RFC 3339 with `P`'s digits (`2026-11-27T10:15:03.123Z`).
pub struct Time<P> {
    at: DateTime<Utc>,
    precision: PhantomData<P>,
}

impl<P: Precision> Time<P> {
    /// This moment, cut to `P` so that what is kept compares equal to what is read back.
    pub fn now() -> Self {
        Self::from(Utc::now())
    }

    /// The moment as chrono's value, for arithmetic.
    pub fn at(self) -> DateTime<Utc> {
        self.at
    }
}

impl<P: Precision> From<DateTime<Utc>> for Time<P> {
    fn from(at: DateTime<Utc>) -> Self {
        let text = at.to_rfc3339_opts(P::FORMAT, true);
        let at = DateTime::parse_from_rfc3339(&text).map_or(at, |t| t.with_timezone(&Utc));
        Time {
            at,
            precision: PhantomData,
        }
    }
}

impl<P: Precision> From<std::time::SystemTime> for Time<P> {
    fn from(t: std::time::SystemTime) -> Self {
        Self::from(DateTime::<Utc>::from(t))
    }
}

impl<P: Precision> fmt::Display for Time<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.at.to_rfc3339_opts(P::FORMAT, true))
    }
}

impl<P> fmt::Debug for Time<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.at, f)
    }
}

/// Reads any RFC 3339 time (any offset, any digits), as stored rows and callers write them.
impl<P: Precision> FromStr for Time<P> {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        DateTime::parse_from_rfc3339(s)
            .map(|t| Self::from(t.with_timezone(&Utc)))
            .map_err(|e| format!("'{s}' is not an RFC 3339 time: {e}"))
    }
}

impl<P: Precision> TryFrom<String> for Time<P> {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

// Derives would ask the same of `P`, a marker that is never a value.
impl<P> Clone for Time<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for Time<P> {}
impl<P> PartialEq for Time<P> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}
impl<P> Eq for Time<P> {}
impl<P> PartialOrd for Time<P> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<P> Ord for Time<P> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.at.cmp(&other.at)
    }
}
impl<P> std::hash::Hash for Time<P> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.at.hash(state);
    }
}

impl<P: Precision> Serialize for Time<P> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de, P: Precision> Deserialize<'de> for Time<P> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_precision_writes_its_digits_and_reads_back_equal() {
        let at: DateTime<Utc> = "2026-11-27T10:15:03.123456789Z".parse().unwrap();
        assert_eq!(Time::<Secs>::from(at).to_string(), "2026-11-27T10:15:03Z");
        assert_eq!(
            Time::<Millis>::from(at).to_string(),
            "2026-11-27T10:15:03.123Z"
        );
        assert_eq!(
            Time::<Micros>::from(at).to_string(),
            "2026-11-27T10:15:03.123456Z"
        );
        let t = Time::<Millis>::now();
        assert_eq!(t.to_string().parse::<Time<Millis>>(), Ok(t));
        assert_eq!(serde_json::to_value(t).unwrap(), t.to_string());
    }

    #[test]
    fn text_of_one_precision_sorts_as_its_times_do() {
        let a: Time<Millis> = "2026-11-27T10:15:03.9Z".parse().unwrap();
        let b: Time<Millis> = "2026-11-27T10:15:10+00:00".parse().unwrap();
        assert!(a < b);
        assert!(a.to_string() < b.to_string(), "{a} sorts before {b}");
        assert!("yesterday".parse::<Time<Secs>>().is_err());
    }
}
