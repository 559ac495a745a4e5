//! The structured log `<data>/bootsmith.log` (JSON lines written by tracing-subscriber), read
//! back newest first for the window's Logs screen and `GET /api/v2/logs`. The file only grows,
//! so it is read backwards from the end in blocks and never loaded whole; a page stops at
//! `limit` matching lines or after [`SCAN_CAP`] bytes, with a cursor to go on from there.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};

/// Name of the JSON log file in the data dir.
pub const LOG_FILE: &str = "bootsmith.log";

/// Lines per page when the query does not say.
pub const DEFAULT_LIMIT: u64 = 200;
/// Most lines one page may ask for.
pub const MAX_LIMIT: u64 = 1000;
/// Most bytes one page reads: a rare text in a huge log answers in bounded time, with a cursor.
pub const SCAN_CAP: u64 = 32 * 1024 * 1024;
/// Bytes read per step backwards.
const BLOCK: usize = 64 * 1024;
/// Longest line shown. The app never writes one this long; a longer one (a damaged file) is
/// replaced by a note, which also keeps a page from stalling inside it.
const MAX_LINE: usize = 1024 * 1024;

/// Severity of a log line; `?` for a line that is not a log record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Finest detail.
    Trace,
    /// Detail for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Something to look at.
    Warn,
    /// A failure.
    Error,
    /// Not a log record (garbled or foreign text): its level is not known.
    #[serde(rename = "?")]
    Unknown,
}

impl LogLevel {
    fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "trace" => Some(LogLevel::Trace),
            "debug" => Some(LogLevel::Debug),
            "info" => Some(LogLevel::Info),
            "warn" | "warning" => Some(LogLevel::Warn),
            "error" => Some(LogLevel::Error),
            _ => None,
        }
    }

    fn rank(self) -> Option<u8> {
        match self {
            LogLevel::Trace => Some(0),
            LogLevel::Debug => Some(1),
            LogLevel::Info => Some(2),
            LogLevel::Warn => Some(3),
            LogLevel::Error => Some(4),
            LogLevel::Unknown => None,
        }
    }

    /// At or above `min`. A line of unknown level always passes: it could be an error.
    fn at_least(self, min: LogLevel) -> bool {
        match (self.rank(), min.rank()) {
            (Some(a), Some(b)) => a >= b,
            _ => true,
        }
    }
}

/// Which lines to read: `GET /api/v2/logs?level=warn&q=text&limit=100&before=<cursor>`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// Lowest level shown: `trace`, `debug`, `info`, `warn` (or `warning`) or `error`, in any
    /// case (default, or empty: every line).
    #[param(schema_with = bootsmith_model::schema::log_level)]
    pub level: Option<String>,
    /// Text the line must contain in its message, target or fields, in any case.
    pub q: Option<String>,
    /// Lines per page, 1 to 1000 (default 200).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
    /// The `next` cursor of a previous page: only lines older than that page.
    #[param(schema_with = bootsmith_model::schema::log_cursor)]
    pub before: Option<String>,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LogLine {
    /// When it was written (RFC 3339, UTC); null on a line that is not a log record.
    pub time: Option<String>,
    /// Severity.
    pub level: LogLevel,
    /// The module that wrote it (e.g. `bootsmith_core::records::hosts`); empty on a line that is not a log record.
    pub target: String,
    /// The sentence; the raw text of a line that is not a log record.
    pub message: String,
    /// The record's other fields (e.g. `host`, `error`), and `span` for a request's context.
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
}

/// A page of the log, newest line first.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LogPage {
    /// The matching lines, newest first; fewer than `limit` when the start of the log or the
    /// scan limit was reached.
    pub lines: Vec<LogLine>,
    /// Pass as `before` for older lines; null once the start of the log was reached.
    pub next: Option<String>,
}

/// The checked query.
#[derive(Debug)]
struct Filter {
    min: Option<LogLevel>,
    /// Lower-cased.
    text: Option<String>,
}

impl Filter {
    fn matches(&self, line: &LogLine) -> bool {
        if self.min.is_some_and(|min| !line.level.at_least(min)) {
            return false;
        }
        let Some(q) = &self.text else { return true };
        has(&line.message, q)
            || has(&line.target, q)
            || line
                .fields
                .iter()
                .any(|(k, v)| has(k, q) || value_has(v, q))
    }
}

fn has(text: &str, lower_q: &str) -> bool {
    text.to_lowercase().contains(lower_q)
}

fn value_has(v: &Value, q: &str) -> bool {
    match v {
        Value::String(s) => has(s, q),
        Value::Array(a) => a.iter().any(|v| value_has(v, q)),
        Value::Object(m) => m.iter().any(|(k, v)| has(k, q) || value_has(v, q)),
        other => has(&other.to_string(), q),
    }
}

/// Read a page of the log in the data dir, newest first. A missing log is an empty page.
pub async fn read(app: &App, query: LogQuery) -> Result<LogPage> {
    let (filter, limit, before) = check(query)?;
    let path = app.data_dir().join(LOG_FILE);
    crate::app::blocking(move || {
        read_file(&path, &filter, limit, before, SCAN_CAP).map(|(page, _)| page)
    })
    .await
}

fn check(query: LogQuery) -> Result<(Filter, usize, Option<u64>)> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if limit > MAX_LIMIT {
        return Err(Error::invalid_field(ErrorCode::LogLimitTooLarge, "Too many log lines asked for at once", "limit", format!("{limit} is over the most of {MAX_LIMIT} lines per page; read older lines with `before` set to the page's `next`")));
    }
    let mut problems = Vec::new();
    if limit == 0 {
        problems.push(Problem::field("limit", "must be at least 1"));
    }
    let present = |s: Option<String>| s.filter(|s| !s.is_empty());
    let min = present(query.level).and_then(|l| {
        let parsed = LogLevel::parse(l.trim());
        if parsed.is_none() {
            problems.push(Problem::field(
                "level",
                format!("'{l}' is not a level: use trace, debug, info, warn or error"),
            ));
        }
        parsed
    });
    let before = present(query.before).and_then(|b| {
        let parsed = b.trim().parse::<u64>().ok();
        if parsed.is_none() {
            problems.push(Problem::field(
                "before",
                format!("'{b}' is not a cursor: pass the `next` of a previous page"),
            ));
        }
        parsed
    });
    if !problems.is_empty() {
        return Err(Error::invalid(
            ErrorCode::InvalidLogQuery,
            "The log query is invalid",
            problems,
        ));
    }
    let filter = Filter {
        min,
        text: present(query.q).map(|q| q.to_lowercase()),
    };
    // Checked above: at most MAX_LIMIT, which fits any usize.
    Ok((filter, limit as usize, before))
}

/// Read backwards from `before` (or the end) until `limit` lines match, the start of the file
/// is reached, or `cap` bytes were read. Answers the page and the bytes read.
fn read_file(
    path: &Path,
    filter: &Filter,
    limit: usize,
    before: Option<u64>,
    cap: u64,
) -> Result<(LogPage, u64)> {
    let io = |e| Error::io(format!("reading the log {}", path.display()), e);
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let empty = LogPage {
                lines: Vec::new(),
                next: None,
            };
            return Ok((empty, 0));
        }
        Err(e) => return Err(io(e)),
    };
    let len = file.metadata().map_err(io)?.len();
    // Reading more than the longest line per page guarantees that each page moves the cursor.
    let cap = cap.max((MAX_LINE + BLOCK) as u64);
    // A cursor past the end (the log was replaced since): read the whole new file.
    let end = before.map_or(len, |b| b.min(len));
    let mut lines = Vec::new();
    let mut block = vec![0u8; BLOCK];
    // Bytes [pos, end) have been read. `carry` is the start of the file's line that ends where
    // the oldest line seen so far begins: bytes [pos, pos + carry.len()), its beginning unread.
    let mut pos = end;
    let mut carry: Vec<u8> = Vec::new();
    // Bytes of an over-long line that were dropped instead of carried.
    let mut dropped = 0usize;
    let mut read = 0u64;
    let next = loop {
        if pos == 0 {
            take(&carry, dropped, filter, &mut lines);
            break None;
        }
        if read >= cap {
            break Some(pos + carry.len() as u64);
        }
        let n = BLOCK.min(usize::try_from(pos).unwrap_or(BLOCK));
        pos -= n as u64;
        let buf = &mut block[..n];
        file.seek(SeekFrom::Start(pos)).map_err(io)?;
        file.read_exact(buf).map_err(io)?;
        read += n as u64;
        // Each newline, from the end, closes the line after it: that line is buf[i + 1..seg_end]
        // followed by the carry.
        let mut seg_end = n;
        let mut full = None;
        for i in (0..n).rev().filter(|&i| buf[i] == b'\n') {
            let mut line = buf[i + 1..seg_end].to_vec();
            line.extend_from_slice(&carry);
            take(&line, dropped, filter, &mut lines);
            carry.clear();
            dropped = 0;
            seg_end = i;
            if lines.len() >= limit {
                full = Some(pos + i as u64 + 1);
                break;
            }
        }
        if let Some(start) = full {
            break Some(start);
        }
        if dropped > 0 || carry.len() + seg_end > MAX_LINE {
            dropped += carry.len() + seg_end;
            carry.clear();
        } else {
            let mut joined = buf[..seg_end].to_vec();
            joined.extend_from_slice(&carry);
            carry = joined;
        }
    };
    // A cursor at 0 has nothing before it.
    let next = next.filter(|&n| n > 0).map(|n| n.to_string());
    Ok((LogPage { lines, next }, read))
}

/// Parse one line (the bytes between two newlines) and keep it when it matches.
fn take(raw: &[u8], dropped: usize, filter: &Filter, out: &mut Vec<LogLine>) {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    if raw.is_empty() && dropped == 0 {
        return;
    }
    let line = if dropped > 0 || raw.len() > MAX_LINE {
        garbled(format!(
            "(a line of {} bytes, too long to show)",
            raw.len() + dropped
        ))
    } else {
        parse(raw)
    };
    if filter.matches(&line) {
        out.push(line);
    }
}

/// A tracing-subscriber JSON record, or the raw text as a line of unknown level.
fn parse(raw: &[u8]) -> LogLine {
    let record = match serde_json::from_slice::<Value>(raw) {
        Ok(Value::Object(map)) => map,
        _ => return garbled(String::from_utf8_lossy(raw).into_owned()),
    };
    let Some(level) = record
        .get("level")
        .and_then(Value::as_str)
        .and_then(LogLevel::parse)
    else {
        return garbled(String::from_utf8_lossy(raw).into_owned());
    };
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let mut fields = match record.get("fields") {
        Some(Value::Object(f)) => f.clone(),
        _ => Map::new(),
    };
    let message = text(fields.remove("message").as_ref());
    // Older versions wrote optional fields Debug-formatted (`Some("pod1")`, `None`).
    fields = fields
        .into_iter()
        .filter_map(|(k, v)| readable(v).map(|v| (k, v)))
        .collect();
    // The innermost span (e.g. the HTTP request) gives the line its context; `spans` repeats it.
    if let Some(span) = record.get("span") {
        fields.insert("span".to_owned(), span.clone());
    }
    LogLine {
        time: record
            .get("timestamp")
            .and_then(Value::as_str)
            .map(str::to_owned),
        level,
        target: text(record.get("target")),
        message,
        fields,
    }
}

/// A field's value as a person reads it: `Some("pod1")` is `pod1`, `None` is no value at all.
fn readable(v: Value) -> Option<Value> {
    let Value::String(s) = &v else {
        return Some(v);
    };
    if s == "None" {
        return None;
    }
    match s.strip_prefix("Some(").and_then(|r| r.strip_suffix(')')) {
        Some(inner) => Some(match serde_json::from_str::<Value>(inner) {
            Ok(parsed @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => parsed,
            _ => Value::String(inner.to_owned()),
        }),
        None => Some(v),
    }
}

fn garbled(text: String) -> LogLine {
    LogLine {
        time: None,
        level: LogLevel::Unknown,
        target: String::new(),
        message: text,
        fields: Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A line as tracing-subscriber's JSON layer writes it.
    fn record(n: usize, level: &str, target: &str, message: &str) -> String {
        format!(
            r#"{{"timestamp":"2024-05-01T10:00:{:02}.{:06}Z","level":"{level}","fields":{{"message":"{message}","n":{n}}},"target":"{target}"}}"#,
            n % 60,
            n
        )
    }

    fn write(lines: &[String]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
        f.flush().unwrap();
        f
    }

    fn query(level: Option<&str>, q: Option<&str>, limit: u64, before: Option<&str>) -> LogQuery {
        LogQuery {
            level: level.map(str::to_owned),
            q: q.map(str::to_owned),
            limit: Some(limit),
            before: before.map(str::to_owned),
        }
    }

    fn page(path: &Path, q: LogQuery) -> LogPage {
        let (filter, limit, before) = check(q).unwrap();
        read_file(path, &filter, limit, before, SCAN_CAP).unwrap().0
    }

    fn numbers(p: &LogPage) -> Vec<u64> {
        p.lines
            .iter()
            .map(|l| l.fields["n"].as_u64().unwrap())
            .collect()
    }

    #[test]
    fn records_are_parsed_newest_first() {
        let f = write(&[
            record(1, "INFO", "bootsmith_core::app", "store opened"),
            r#"{"timestamp":"2024-05-01T10:00:02Z","level":"WARN","fields":{"message":"slow","host":"kube01"},"target":"bootsmith_api","span":{"method":"GET","uri":"/api/v2/hosts","name":"request"},"spans":[{"name":"request"}]}"#.to_owned(),
        ]);
        let p = page(f.path(), LogQuery::default());
        assert_eq!(p.next, None);
        assert_eq!(p.lines.len(), 2);
        let newest = &p.lines[0];
        assert_eq!(newest.time.as_deref(), Some("2024-05-01T10:00:02Z"));
        assert_eq!(newest.level, LogLevel::Warn);
        assert_eq!(newest.target, "bootsmith_api");
        assert_eq!(newest.message, "slow");
        assert_eq!(newest.fields["host"], "kube01");
        assert_eq!(newest.fields["span"]["uri"], "/api/v2/hosts");
        assert!(!newest.fields.contains_key("message"));
        assert!(!newest.fields.contains_key("spans"));
        assert_eq!(p.lines[1].message, "store opened");
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["lines"][0]["level"], "warn");
        assert_eq!(json["next"], Value::Null);
    }

    #[test]
    fn level_filter_keeps_that_level_and_above() {
        let levels = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"];
        let lines: Vec<String> = (0..20)
            .map(|n| record(n, levels[n % 5], "t", "m"))
            .collect();
        let f = write(&lines);
        let p = page(f.path(), query(Some("warn"), None, 100, None));
        assert_eq!(numbers(&p), vec![19, 18, 14, 13, 9, 8, 4, 3]);
        let p = page(f.path(), query(Some("ERROR"), None, 100, None));
        assert!(p.lines.iter().all(|l| l.level == LogLevel::Error));
        assert_eq!(p.lines.len(), 4);
        assert_eq!(
            page(f.path(), query(Some("trace"), None, 100, None))
                .lines
                .len(),
            20
        );
        assert_eq!(
            page(f.path(), query(Some(""), None, 100, None)).lines.len(),
            20
        );
    }

    #[test]
    fn text_filter_looks_at_message_target_and_fields_in_any_case() {
        let f = write(&[
            record(0, "INFO", "bootsmith_core::hosts", "host list replaced"),
            r#"{"timestamp":"t","level":"INFO","fields":{"message":"deploy done","host":"Kube01","count":42},"target":"bootsmith_core::deploy"}"#.to_owned(),
            record(2, "ERROR", "bootsmith_api", "request failed"),
        ]);
        let messages = |q: &str| -> Vec<String> {
            page(f.path(), query(None, Some(q), 100, None))
                .lines
                .into_iter()
                .map(|l| l.message)
                .collect()
        };
        assert_eq!(messages("HOST LIST"), ["host list replaced"]);
        assert_eq!(messages("kube01"), ["deploy done"], "a field value");
        assert_eq!(messages("42"), ["deploy done"], "a number field");
        assert_eq!(messages("core::"), ["deploy done", "host list replaced"]);
        assert_eq!(messages("bootsmith_api"), ["request failed"]);
        assert!(messages("no such text").is_empty());
        assert!(
            messages("timestamp").is_empty(),
            "the record's own keys are not text"
        );
        let p = page(f.path(), query(Some("error"), Some("request"), 100, None));
        assert_eq!(p.lines.len(), 1);
    }

    #[test]
    fn garbled_lines_are_shown_raw_with_an_unknown_level() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(record(0, "INFO", "t", "before").as_bytes())
            .unwrap();
        f.write_all(b"\nthread 'main' panicked at src/x.rs\n")
            .unwrap();
        f.write_all(b"{\"level\":\"INFO\",\"fields\":{\"mess\n")
            .unwrap();
        f.write_all(b"[1,2,3]\n{\"level\":\"LOUD\"}\n\xff\xfe bytes\r\n\n\n")
            .unwrap();
        f.write_all(record(1, "INFO", "t", "after").as_bytes())
            .unwrap();
        // No newline after the last record: it is read all the same.
        f.flush().unwrap();
        let p = page(f.path(), LogQuery::default());
        let got: Vec<(LogLevel, &str)> = p
            .lines
            .iter()
            .map(|l| (l.level, l.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (LogLevel::Info, "after"),
                (LogLevel::Unknown, "\u{fffd}\u{fffd} bytes"),
                (LogLevel::Unknown, "{\"level\":\"LOUD\"}"),
                (LogLevel::Unknown, "[1,2,3]"),
                (LogLevel::Unknown, "{\"level\":\"INFO\",\"fields\":{\"mess"),
                (LogLevel::Unknown, "thread 'main' panicked at src/x.rs"),
                (LogLevel::Info, "before"),
            ]
        );
        assert!(p.lines[1].time.is_none() && p.lines[1].target.is_empty());
        let json = serde_json::to_value(&p.lines[1]).unwrap();
        assert_eq!(json["level"], "?");
        // An unknown level could be an error: a level filter keeps it; a text filter applies.
        assert_eq!(
            page(f.path(), query(Some("error"), None, 100, None))
                .lines
                .len(),
            5
        );
        assert_eq!(
            page(f.path(), query(None, Some("PANICKED"), 100, None)).lines[0].message,
            "thread 'main' panicked at src/x.rs"
        );
    }

    #[test]
    fn the_cursor_pages_through_older_lines() {
        let lines: Vec<String> = (0..25)
            .map(|n| record(n, if n % 2 == 0 { "WARN" } else { "INFO" }, "t", "m"))
            .collect();
        let f = write(&lines);
        let mut seen = Vec::new();
        let mut before: Option<String> = None;
        let mut pages = 0;
        loop {
            let p = page(f.path(), query(None, None, 10, before.as_deref()));
            seen.extend(numbers(&p));
            pages += 1;
            match p.next {
                Some(n) => before = Some(n),
                None => break,
            }
        }
        assert_eq!(pages, 3);
        assert_eq!(seen, (0..25).rev().collect::<Vec<u64>>());

        // With a filter, a page holds `limit` matching lines and the cursor skips the rest.
        let first = page(f.path(), query(Some("warn"), None, 5, None));
        assert_eq!(numbers(&first), vec![24, 22, 20, 18, 16]);
        let second = page(
            f.path(),
            query(Some("warn"), None, 5, first.next.as_deref()),
        );
        assert_eq!(numbers(&second), vec![14, 12, 10, 8, 6]);

        // Exactly the last lines: nothing older, no cursor.
        let all = page(f.path(), query(None, None, 25, None));
        assert_eq!(all.lines.len(), 25);
        assert_eq!(all.next, None);

        // A cursor past the end (the log was replaced) reads from the end.
        let p = page(f.path(), query(None, None, 1, Some("999999999")));
        assert_eq!(numbers(&p), vec![24]);
    }

    #[test]
    fn a_large_log_is_read_from_its_tail_only() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        let mut last = 0;
        {
            let mut w = std::io::BufWriter::new(f.as_file_mut());
            writeln!(w, "{}", record(0, "INFO", "t", "the very first line")).unwrap();
            let mut written = 0;
            while written < 50 * 1024 * 1024 {
                last += 1;
                let l = record(last, "INFO", "bootsmith_core::jobs", "job step done");
                writeln!(w, "{l}").unwrap();
                written += l.len() + 1;
            }
            w.flush().unwrap();
        }
        let last = last as u64;

        let (filter, limit, before) = check(query(None, None, 200, None)).unwrap();
        let (p, read) = read_file(f.path(), &filter, limit, before, SCAN_CAP).unwrap();
        assert_eq!(numbers(&p), (last - 199..=last).rev().collect::<Vec<u64>>());
        assert!(p.next.is_some());
        assert!(read <= 2 * BLOCK as u64, "read {read} bytes for 200 lines");

        // A text found only at the start: each page stops at the scan cap with a cursor.
        let cap = 8 * 1024 * 1024;
        let (filter, limit, _) = check(query(None, Some("VERY FIRST"), 10, None)).unwrap();
        let mut before = None;
        let mut pages = 0;
        let found = loop {
            let (p, read) = read_file(f.path(), &filter, limit, before, cap).unwrap();
            pages += 1;
            assert!(read <= cap + BLOCK as u64);
            if !p.lines.is_empty() || p.next.is_none() {
                break p;
            }
            before = p.next.map(|n| n.parse().unwrap());
        };
        assert_eq!(pages, 7, "50 MiB in pages of at most 8 MiB");
        assert_eq!(numbers(&found), vec![0]);
        assert_eq!(found.next, None);
    }

    #[test]
    fn an_over_long_line_is_replaced_by_a_note() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", record(0, "INFO", "t", "old")).unwrap();
        f.write_all(&vec![b'x'; 3 * MAX_LINE + 10]).unwrap();
        writeln!(f).unwrap();
        writeln!(f, "{}", record(1, "INFO", "t", "new")).unwrap();
        f.flush().unwrap();
        let p = page(f.path(), LogQuery::default());
        // Short texts only: a failure must not print a megabyte.
        let short: Vec<String> = p
            .lines
            .iter()
            .map(|l| l.message.chars().take(60).collect())
            .collect();
        let note = format!("(a line of {} bytes, too long to show)", 3 * MAX_LINE + 10);
        assert_eq!(short, ["new", note.as_str(), "old"]);
        assert_eq!(p.lines[1].level, LogLevel::Unknown);

        // With a scan cap inside that line, each page still moves the cursor back.
        let (filter, _, _) = check(LogQuery::default()).unwrap();
        let mut before = None;
        let mut messages = Vec::new();
        for _ in 0..100 {
            let (p, _) = read_file(f.path(), &filter, 10, before, 300 * 1024).unwrap();
            messages.extend(
                p.lines
                    .into_iter()
                    .map(|l| l.message.chars().take(60).collect()),
            );
            let Some(n) = p.next else { break };
            let n: u64 = n.parse().unwrap();
            assert!(before.is_none_or(|b| n < b), "the cursor moves back");
            before = Some(n);
        }
        assert_eq!(messages.first().map(String::as_str), Some("new"));
        assert_eq!(messages.last().map(String::as_str), Some("old"));
    }

    #[test]
    fn a_missing_log_is_an_empty_page() {
        let dir = tempfile::tempdir().unwrap();
        let p = page(&dir.path().join(LOG_FILE), LogQuery::default());
        assert_eq!(
            p,
            LogPage {
                lines: Vec::new(),
                next: None
            }
        );
    }

    #[test]
    fn bad_queries_are_refused_with_a_reason() {
        let code = |q: LogQuery| check(q).unwrap_err().code();
        assert_eq!(code(query(None, None, 1001, None)), "log_limit_too_large");
        assert_eq!(code(query(None, None, 0, None)), "invalid_log_query");
        let e = check(query(Some("loud"), None, 10, Some("abc"))).unwrap_err();
        assert_eq!(e.code(), "invalid_log_query");
        let fields: Vec<&str> = e.details().iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["level", "before"]);
        assert!(e.to_string().contains("'loud' is not a level"), "{e}");
        let (_, limit, before) = check(LogQuery::default()).unwrap();
        assert_eq!((limit, before), (200, None));
        assert!(check(query(None, None, 1000, Some(""))).is_ok());
    }

    #[test]
    fn optional_fields_written_as_debug_text_read_as_their_value() {
        let f = write(&[
            r#"{"timestamp":"2024-05-01T10:00:00Z","level":"INFO","fields":{"message":"job started","job":"j1","kind":"deploy","scope":"Some(\"pod1\")","proxy":"None","servers":1},"target":"bootsmith_core::jobs"}"#.to_owned(),
        ]);
        let p = page(f.path(), query(None, None, 10, None));
        let fields = &p.lines[0].fields;
        assert_eq!(fields["scope"], "pod1");
        assert!(!fields.contains_key("proxy"), "{fields:?}");
        assert_eq!(fields["servers"], 1);
        assert_eq!(fields["job"], "j1");
    }
}
