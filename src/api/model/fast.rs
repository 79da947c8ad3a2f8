//! A reader made for the usual listing answer: an object (or a bare array) whose list
//! holds flat invoices of plain text, numbers, booleans and null. It walks the text
//! once and hands each field to [`decode_into`], the same decoder serde's path uses, so
//! an invoice comes out the same either way. serde_json's machinery (a visitor and a
//! call per key and per value) was half of an export's decoding (`perf` of a
//! 1,000,000-invoice export; see benches/README.md).
//!
//! It is sure only of what it reads plainly. A number, an escaped string, a nested
//! value or a paging field is cut out whole and read by serde_json from that slice (the
//! same reading, since a JSON value means the same alone). Anything else it cannot be
//! sure of (an error, an odd shape, deep nesting) makes it give up: the whole answer is
//! then read by serde_json, which decides, and words any error as before.

use super::decode::{Field, Fields, Raw, decode_into, plain_json_number};
use super::page::{Listing, list_key, paging_key};
use super::{Invoice, Page, spare};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The reader gave up: serde_json reads the answer instead.
#[derive(Debug)]
pub(super) struct Unsure;

/// Nesting deeper than this inside a field's value is left to serde_json, whose own limit
/// (128) counts from the top of the answer.
const MAX_NESTING: usize = 100;

/// Reads a listing answer as [`Page::from_text`] does, or gives up.
pub(super) fn page(text: &str) -> Result<Page, Unsure> {
    let mut r = Reader { text, at: 0 };
    r.ws();
    let page = match r.peek() {
        Some(b'[') => Page {
            items: r.invoices()?,
            next: None,
            total: None,
        },
        Some(b'{') => r.listing_object()?,
        _ => return Err(Unsure),
    };
    r.ws();
    if r.at != text.len() {
        Invoice::recycle_page(page.items);
        return Err(Unsure);
    }
    Ok(page)
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips JSON's white space.
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// After white space, `c` (taken), or giving up.
    fn expect(&mut self, c: u8) -> Result<(), Unsure> {
        self.ws();
        if self.peek() != Some(c) {
            return Err(Unsure);
        }
        self.at += 1;
        Ok(())
    }

    /// After `{` or `[` and any white space: whether a next entry follows (a `,` taken
    /// unless it is the first) or the `close` that ends them (taken).
    fn another(&mut self, first: bool, close: u8) -> Result<bool, Unsure> {
        self.ws();
        match self.peek() {
            Some(c) if c == close => {
                self.at += 1;
                Ok(false)
            }
            _ if first => Ok(true),
            Some(b',') => {
                self.at += 1;
                self.ws();
                Ok(true)
            }
            _ => Err(Unsure),
        }
    }

    /// The string whose `"` is at the reader: its text between the quotes, and whether it
    /// has escapes (then that text is not yet what it means).
    fn string(&mut self) -> Result<(&'a str, bool), Unsure> {
        let b = self.text.as_bytes();
        let start = self.at + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            i = next_special(b, i).ok_or(Unsure)?;
            match b[i] {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 2;
                }
                // A control character, which JSON text may not hold.
                _ => return Err(Unsure),
            }
        }
        self.at = i + 1;
        Ok((&self.text[start..i], escaped))
    }

    /// A key and its `:`: borrowed when it has no escapes.
    fn key(&mut self) -> Result<Cow<'a, str>, Unsure> {
        if self.peek() != Some(b'"') {
            return Err(Unsure);
        }
        let start = self.at;
        let key = match self.string()? {
            (k, false) => Cow::Borrowed(k),
            (_, true) => Cow::Owned(self.read(start)?),
        };
        self.expect(b':')?;
        Ok(key)
    }

    /// What serde_json reads in the text from `start` to the reader.
    fn read<T: serde::Deserialize<'a>>(&self, start: usize) -> Result<T, Unsure> {
        serde_json::from_str(&self.text[start..self.at]).map_err(|_| Unsure)
    }

    /// Passes over one value (after white space), checked only as far as finding its
    /// end: the caller has serde_json read it.
    fn pass_value(&mut self) -> Result<(), Unsure> {
        self.ws();
        let mut depth = 0usize;
        loop {
            match self.peek().ok_or(Unsure)? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Err(Unsure);
                    }
                    self.at += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1).ok_or(Unsure)?;
                    self.at += 1;
                }
                b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' => {
                    while let Some(b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z') =
                        self.peek()
                    {
                        self.at += 1;
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' if depth > 0 => self.at += 1,
                _ => return Err(Unsure),
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// One value (after white space) as [`Raw`] reads it: plain text, `true`, `false`,
    /// `null` and `{}` here, the rest by serde_json from its slice.
    fn value(&mut self) -> Result<Raw<'a>, Unsure> {
        self.ws();
        let start = self.at;
        let rest = &self.text.as_bytes()[start..];
        let (raw, len) = match rest.first().ok_or(Unsure)? {
            b'"' => match self.string()? {
                (s, false) => return Ok(Raw::Str(Cow::Borrowed(s))),
                (_, true) => return self.read(start),
            },
            b't' if rest.starts_with(b"true") => (Raw::Bool(true), 4),
            b'f' if rest.starts_with(b"false") => (Raw::Bool(false), 5),
            b'n' if rest.starts_with(b"null") => (Raw::Null, 4),
            // What `Raw` makes of an empty object.
            b'{' if rest.get(1) == Some(&b'}') => (Raw::Other(Value::Object(Map::new())), 2),
            b'-' | b'0'..=b'9' => {
                let len = rest
                    .iter()
                    .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(rest.len());
                self.at += len;
                return match number(&self.text[start..self.at]) {
                    Some(raw) => Ok(raw),
                    None => self.read(start),
                };
            }
            _ => {
                self.pass_value()?;
                return self.read(start);
            }
        };
        self.at += len;
        Ok(raw)
    }

    /// The list at the reader (`[`), decoded into the page given back last (as
    /// `MaybeList` does), or giving up (that page given back again).
    fn invoices(&mut self) -> Result<Vec<Invoice>, Unsure> {
        self.at += 1;
        let mut items = spare::page();
        let mut n = 0;
        let read = loop {
            match self.another(n == 0, b']') {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => break Err(e),
            }
            if self.peek() != Some(b'{') {
                break Err(Unsure);
            }
            self.at += 1;
            let fields = InvoiceFields {
                r: self,
                first: true,
            };
            let done = match items.get_mut(n) {
                Some(used) => decode_into(used, fields),
                None => {
                    let mut inv = Invoice::empty();
                    let done = decode_into(&mut inv, fields);
                    items.push(inv);
                    done
                }
            };
            if let Err(e) = done {
                break Err(e);
            }
            n += 1;
        };
        if let Err(e) = read {
            Invoice::recycle_page(items);
            return Err(e);
        }
        items.truncate(n);
        Ok(items)
    }

    /// A listing object (at its `{`): its list and its paging fields, as `Listing` reads
    /// them.
    fn listing_object(&mut self) -> Result<Page, Unsure> {
        self.at += 1;
        let mut items: Option<Vec<Invoice>> = None;
        let mut meta = Map::new();
        let read = (|| {
            let mut first = true;
            while self.another(first, b'}')? {
                first = false;
                let key = self.key()?;
                self.ws();
                if list_key(&key) && items.is_none() && self.peek() == Some(b'[') {
                    items = Some(self.invoices()?);
                } else {
                    // A list key's value that is no list is as if absent (another key
                    // may hold the list); no key is both a list key and a paging key.
                    let start = self.at;
                    self.pass_value()?;
                    if paging_key(&key) {
                        meta.insert(key.into_owned(), self.read::<Value>(start)?);
                    } else {
                        self.read::<serde::de::IgnoredAny>(start)?;
                    }
                }
            }
            Ok(())
        })();
        let page = read.and_then(|()| {
            Listing::of(items.take(), &meta)
                .map(Page::from)
                .map_err(|_| Unsure)
        });
        if let Some(items) = items {
            Invoice::recycle_page(items);
        }
        page
    }
}

/// A number as `Raw` reads it, when it is written plainly (as serde_json keeps the text
/// of the numbers it reads): a whole number that fits 64 bits as one (as serde_json hands
/// it over), any other as its text. `None`: read by serde_json instead.
fn number(text: &str) -> Option<Raw<'_>> {
    if !plain_json_number(text) {
        return None;
    }
    if text.bytes().any(|c| c == b'.' || c == b'e') {
        return Some(Raw::Number(text.to_owned()));
    }
    // A negative one is left to serde_json, which keeps `-0` as text.
    if text.starts_with('-') {
        return None;
    }
    Some(
        text.parse::<u64>()
            .map_or_else(|_| Raw::Number(text.to_owned()), |n| Raw::Int(n.into())),
    )
}

/// An invoice object's fields, read after its `{`.
struct InvoiceFields<'r, 'a> {
    r: &'r mut Reader<'a>,
    first: bool,
}

impl<'a> Fields<'a> for InvoiceFields<'_, 'a> {
    type Error = Unsure;
    fn next_key(&mut self) -> Result<Option<Field<'a>>, Unsure> {
        let first = std::mem::replace(&mut self.first, false);
        if !self.r.another(first, b'}')? {
            return Ok(None);
        }
        Ok(Some(Field::of(self.r.key()?)))
    }
    fn next_value(&mut self) -> Result<Raw<'a>, Unsure> {
        self.r.value()
    }
    fn invalid(_: &'static str) -> Unsure {
        Unsure
    }
}

/// Where the first `"`, `\` or control character at or after `i` is: what ends the plain
/// run of a string. Eight bytes at a time (as serde_json's own scan): a byte is found
/// by the high bit of `(x - 0x01…01) & !x` for `x` the word with it made zero, and one
/// below 0x20 by `(w - 0x20…20) & !w`; the lowest byte flagged is always a real one.
fn next_special(b: &[u8], mut i: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let special = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
    while let Some(word) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let zero = |x: u64| x.wrapping_sub(ONES) & !x;
        let hits = (zero(w ^ (ONES * u64::from(b'"')))
            | zero(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w))
            & HIGHS;
        if hits != 0 {
            let at = i + (hits.trailing_zeros() / 8) as usize;
            if special(b[at]) {
                return Some(at);
            }
            // Never so, but a byte-by-byte look is always right.
            return b[i..].iter().position(|&c| special(c)).map(|k| i + k);
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|&c| special(c)).map(|k| i + k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// serde_json's reading of a page, with the fast reader out of the way.
    fn by_serde(text: &str) -> Result<Page, String> {
        serde_json::from_str::<Page>(text).map_err(|e| e.to_string())
    }

    #[test]
    fn the_usual_answer_is_read_here_and_as_serde_json_reads_it() {
        let text = r#"{"items":[{"id":"in_1","customer":"cus_a","amount":3962000,"currency_code":"CLP","is_paid":false,"is_void":false,"invoice_external_id":null,"metadata":{},"created_at":"2024-06-15T12:00:00Z"},
            {"id":"in_2","customer":"cus_a","amount":121.4522,"currency_code":"CLF","is_paid":true,"metadata":{"k":"v","n":[1,2.50]},"note":"Jos\u00e9 \"P\"","x":-0,"y":1e5}],
            "next_cursor":"cG9zOjEwMDA","total": 2}"#;
        let fast = page(text).expect("read here");
        assert_eq!(Ok(&fast), by_serde(text).as_ref());
        assert_eq!(fast.items[1].extra["note"], "José \"P\"");
        assert_eq!(
            fast.next,
            Some(super::super::NextPage::Cursor("cG9zOjEwMDA".into()))
        );
        // A bare list too.
        let bare = r#" [ {"id":"in_1"} , {"id" : 7} ] "#;
        assert_eq!(Ok(&page(bare).expect("read here")), by_serde(bare).as_ref());
    }

    #[test]
    fn what_it_is_not_sure_of_is_left_to_serde_json() {
        for text in [
            r#"{"items":[{"id":"in_1",}]}"#,
            r#"{"items":[{"id":"in_1"}],}"#,
            r#"{"items":[{"id":"in_1"},]}"#,
            "{\"items\":[{\"id\":\"in\u{1}\"}]}",
            r#"{"items":[{"id":"in_1","a":tru}]}"#,
            r#"{"items":[{"id":"in_1","a":truex}]}"#,
            r#"{"items":[{"id":"in_1","a":[1,}]}]}"#,
            r#"{"items":[{"id":"in_1","a":01}]}"#,
            r#"{"items":[{"id":"in_1","a":"\x"}]}"#,
            r#"{"items":[{"amount":1}]}"#,
            r#"{"items":[1]}"#,
            r#"{"items":[{"id":"in_1"}]} x"#,
            r#"{"items":[{"id":"in_1"}]"#,
            r#"{"data":{},"next":"2"}"#,
            r#"{"items":[{"id":"in_1","a":"no end}]}"#,
        ] {
            assert!(page(text).is_err(), "{text}");
        }
        let deep = format!(
            r#"{{"items":[{{"id":"in_1","a":{}1{}}}]}}"#,
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        assert!(page(&deep).is_err());
    }

    #[test]
    fn the_special_bytes_are_found_wherever_they_are() {
        for len in 0..24 {
            for at in 0..len {
                for c in [b'"', b'\\', 0u8, 0x1f] {
                    let mut b = vec![b'a'; len];
                    b[at] = c;
                    // Bytes that look alike to the word trick just after it.
                    if at + 1 < len {
                        b[at + 1] = 0x21;
                    }
                    assert_eq!(next_special(&b, 0), Some(at), "{b:?}");
                    assert_eq!(next_special(&b, at + 1), None, "{b:?}");
                }
            }
        }
        assert_eq!(next_special("é\u{7f}ñ ~ \"".as_bytes(), 0), Some(8));
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            Just("{}".to_string()),
            Just("{ }".to_string()),
            Just("[]".to_string()),
            Just("[1,{\"a\":[null,\"]\"]}]".to_string()),
            Just("{\"k\":1.50,\"k\":\"v\"}".to_string()),
            "-?[0-9]{1,22}(\\.[0-9]{0,5})?([eE][-+]?[0-9]{1,2})?",
            "\"[a-z0-9 .,:{}\\[\\]é-]{0,10}\"",
            "\"([a-z]|\\\\[\"\\\\/bfnrt]|\\\\u00e9|\\\\u[dD]83[dD]\\\\u[dD]e00){0,4}\"",
            // Broken ones: serde_json must be the one to say so.
            prop::sample::select(vec![
                "tru",
                "nul",
                "01",
                "1.",
                "-",
                "\"\\q\"",
                "[1,]",
                "{\"a\"}",
                "\"\u{1}\""
            ])
            .prop_map(str::to_string),
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(
                super::super::KNOWN_FIELDS
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
            )
            .prop_map(|k| format!("\"{k}\"")),
            Just("\"creat\\u0065d_at\"".to_string()),
            Just("\"cust\\u006fmer\"".to_string()),
            "\"[a-z_]{1,8}\"",
        ]
    }

    fn ws() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["", "", "", " ", "\n\t ", "\r\n"])
    }

    fn invoice() -> impl Strategy<Value = String> {
        (
            prop::option::of(value()),
            prop::collection::vec((key(), value(), ws()), 0..8),
        )
            .prop_map(|(id, fields)| {
                let id = id.map(|v| format!("\"id\":{v}"));
                let rest = fields
                    .iter()
                    .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}{w}"));
                format!(
                    "{{{}}}",
                    id.into_iter().chain(rest).collect::<Vec<_>>().join(",")
                )
            })
    }

    fn listing() -> impl Strategy<Value = String> {
        let list =
            || prop::collection::vec(invoice(), 0..5).prop_map(|v| format!("[{}]", v.join(",")));
        let other = prop_oneof![
            Just("\"next_cursor\":\"abc\"".to_string()),
            Just("\"next\":\"/invoices?cursor=z\"".to_string()),
            Just("\"page\":1,\"total_pages\":\"3\"".to_string()),
            Just("\"has_more\":false".to_string()),
            Just("\"total\":12".to_string()),
            Just("\"links\":[{\"next\":\"x\"}]".to_string()),
            Just("\"data\":{\"items\":[]}".to_string()),
            Just("\"next_cursor\":\"a\\u0062\"".to_string()),
        ];
        prop_oneof![
            list(),
            (
                prop::sample::select(vec!["items", "data", "results", "invoices", "it\\u0065ms"]),
                list(),
                prop::collection::vec(other, 0..3),
                prop::bool::ANY,
            )
                .prop_map(|(k, l, others, before)| {
                    let mut parts: Vec<String> = others;
                    let at = if before { 0 } else { parts.len() };
                    parts.insert(at, format!("\"{k}\":{l}"));
                    format!("{{{}}}", parts.join(","))
                }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Whatever it reads is what serde_json reads; it gives up on what serde_json
        /// refuses, and only on that.
        #[test]
        fn reads_as_serde_json_does_or_gives_up(text in listing()) {
            let ours = page(&text);
            let theirs = by_serde(&text);
            if let Ok(ours) = &ours {
                prop_assert_eq!(Ok(ours), theirs.as_ref(), "{}", text);
            }
            // Escapes included: only what serde_json refuses (or nesting this deep,
            // never made here) is given up on.
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// A hostile answer: a listing cut short, or with one byte put in, taken out or
        /// changed anywhere. Never a panic, and the same reading or a give-up.
        #[test]
        fn a_damaged_answer_is_read_as_serde_json_reads_it(
            text in listing(),
            at in any::<prop::sample::Index>(),
            byte in prop::sample::select(b"\"\\{}[]:,0-.eE \x01tnx".to_vec()),
            how in 0..4u8,
        ) {
            let mut b = text.into_bytes();
            let i = at.index(b.len() + 1);
            match how {
                0 => b.truncate(i),
                1 => b.insert(i, byte),
                2 if i < b.len() => { b.remove(i); }
                _ if i < b.len() => b[i] = byte,
                _ => {}
            }
            // Only damage that leaves text is an answer (the bytes are checked before).
            let Ok(text) = String::from_utf8(b) else { return Ok(()) };
            let ours = page(&text);
            let theirs = by_serde(&text);
            if let Ok(ours) = &ours {
                prop_assert_eq!(Ok(ours), theirs.as_ref(), "{}", text);
            }
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", text);
        }
    }
}
