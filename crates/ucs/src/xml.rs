//! Managed objects and method calls as XML: the one place that reads and
//! writes the wire format. Every attribute value is escaped on write and
//! unescaped on read; nothing is ever spliced into XML as raw text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use quick_xml::escape::escape;
use quick_xml::events::Event;
use quick_xml::Reader;

/// An XML element of the UCS API: a managed object, a method call or reply, or a container.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mo {
    /// Element name: class id (`computeBlade`) or method name (`configResolveClass`).
    pub class: String,
    /// Attributes, unescaped.
    pub attrs: BTreeMap<String, String>,
    /// Child elements in document order.
    pub children: Vec<Mo>,
}

impl Mo {
    /// An element with no attributes.
    pub fn new(class: impl Into<String>) -> Self {
        Mo {
            class: class.into(),
            ..Default::default()
        }
    }

    /// Add or replace an attribute.
    pub fn with(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.attrs.insert(key.into(), value.into());
        self
    }

    /// Add a child element.
    pub fn child(mut self, c: Mo) -> Self {
        self.children.push(c);
        self
    }

    /// An attribute's value.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.get(key).map(String::as_str)
    }

    /// An attribute's value, or "" when absent.
    pub fn get(&self, key: &str) -> &str {
        self.attr(key).unwrap_or("")
    }

    /// The first child with this element name.
    pub fn find(&self, class: &str) -> Option<&Mo> {
        self.children.iter().find(|c| c.class == class)
    }

    /// All descendants (depth first, self excluded) with this element name.
    pub fn descendants<'a>(&'a self, class: &'a str) -> impl Iterator<Item = &'a Mo> + 'a {
        let mut stack: Vec<&Mo> = self.children.iter().rev().collect();
        std::iter::from_fn(move || {
            while let Some(m) = stack.pop() {
                stack.extend(m.children.iter().rev());
                if m.class == class {
                    return Some(m);
                }
            }
            None
        })
    }

    /// Serialise to XML with every attribute value escaped.
    pub fn to_xml(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(&self.class);
        for (k, v) in &self.attrs {
            let _ = write!(out, " {k}=\"{}\"", escape(v.as_str()));
        }
        if self.children.is_empty() {
            out.push_str("/>");
        } else {
            out.push('>');
            for c in &self.children {
                c.write(out);
            }
            out.push_str("</");
            out.push_str(&self.class);
            out.push('>');
        }
    }

    /// Parse one element (and its descendants) from XML text; text content is ignored.
    pub fn parse(xml: &str) -> Result<Mo, String> {
        let mut reader = Reader::from_str(xml);
        let mut stack: Vec<Mo> = Vec::new();
        let mut root: Option<Mo> = None;
        loop {
            let ev = reader
                .read_event()
                .map_err(|e| format!("malformed XML at byte {}: {e}", reader.buffer_position()))?;
            match ev {
                Event::Start(e) | Event::Empty(e) if root.is_some() => {
                    return Err(format!(
                        "more than one root element ({})",
                        String::from_utf8_lossy(e.name().as_ref())
                    ));
                }
                Event::Start(e) => stack.push(element(&e)?),
                Event::Empty(e) => {
                    let m = element(&e)?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(m),
                        None => root = Some(m),
                    }
                }
                Event::End(_) => {
                    let m = stack.pop().ok_or("unbalanced end tag")?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(m),
                        None => root = Some(m),
                    }
                }
                Event::Eof => break,
                Event::DocType(_) => return Err("DOCTYPE is not allowed".into()),
                _ => {}
            }
        }
        if !stack.is_empty() {
            return Err("the document ends inside an element".into());
        }
        root.ok_or_else(|| "no XML element".into())
    }
}

fn element(e: &quick_xml::events::BytesStart<'_>) -> Result<Mo, String> {
    let class = std::str::from_utf8(e.name().as_ref())
        .map_err(|_| "element name is not UTF-8".to_owned())?
        .to_owned();
    let mut attrs = BTreeMap::new();
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad attribute in <{class}>: {err}"))?;
        let key = std::str::from_utf8(a.key.as_ref())
            .map_err(|_| "attribute name is not UTF-8".to_owned())?
            .to_owned();
        let value = a
            .unescape_value()
            .map_err(|err| format!("bad value of {key} in <{class}>: {err}"))?
            .into_owned();
        if attrs.insert(key.clone(), value).is_some() {
            return Err(format!("attribute {key} appears twice in <{class}>"));
        }
    }
    Ok(Mo {
        class,
        attrs,
        children: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_and_round_trip() {
        let m = Mo::new("aaaLogin")
            .with("inName", "admin")
            .with("inPassword", r#"p"w<&>'x"#)
            .child(Mo::new("inConfig").child(Mo::new("lsServer").with("descr", "a\"b")));
        let xml = m.to_xml();
        assert!(!xml.contains(r#"p"w<"#));
        assert!(xml.contains("&quot;") && xml.contains("&lt;") && xml.contains("&amp;"));
        assert_eq!(Mo::parse(&xml).unwrap(), m);
    }

    #[test]
    fn malformed_documents_are_errors() {
        for bad in [
            "",
            "<a>",
            "<a></b>",
            "<a/><b/>",
            "<a x='1' x='2'/>",
            "<!DOCTYPE a><a/>",
            "text",
        ] {
            assert!(Mo::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn descendants_are_found_in_order() {
        let m = Mo::parse(r#"<r><a n="1"><b/><a n="2"/></a><a n="3"/></r>"#).unwrap();
        let ns: Vec<&str> = m.descendants("a").map(|a| a.get("n")).collect();
        assert_eq!(ns, ["1", "2", "3"]);
    }
}
