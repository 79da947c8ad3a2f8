//! The pages of a customer listing: a bare array, or an object with `items`/`data`/
//! `results` and a cursor, a next URL or page numbers. Decoded straight from the bytes.

use super::Invoice;
use super::decode_error;
use crate::api::error::ApiError;
use serde::Deserialize;
use serde_json::{Map, Value};

/// How to ask for the next page of a customer listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextPage {
    /// Send `cursor=<value>`.
    Cursor(String),
    /// Fetch this URL (must be on the service's own origin).
    Url(String),
    /// Send `page=<n>`.
    Number(u64),
}

impl NextPage {
    /// The form kept to detect a cycle: long cursors and URLs by a digest only, so that
    /// remembering thousands of them stays small.
    pub fn remembered(&self) -> NextPage {
        use std::hash::{Hash, Hasher};
        let digest = |s: &str| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            s.hash(&mut h);
            format!("#{:016x}:{}", h.finish(), s.len())
        };
        match self {
            NextPage::Cursor(c) if c.len() > 64 => NextPage::Cursor(digest(c)),
            NextPage::Url(u) if u.len() > 64 => NextPage::Url(digest(u)),
            other => other.clone(),
        }
    }
}

/// One page of a customer listing.
#[derive(Debug, PartialEq)]
pub struct Page {
    /// The invoices on it.
    pub items: Vec<Invoice>,
    /// How to get the next one; `None` at the end.
    pub next: Option<NextPage>,
    /// How many invoices in all, when the service says.
    pub total: Option<u64>,
}

impl Page {
    /// Decodes a listing answer: a bare array, or an object with `items`/`data`/`results`
    /// (or `invoices`) and a cursor (`next_cursor`, `next`) or page number.
    pub fn from_value(value: Value) -> Result<Page, ApiError> {
        Page::deserialize(value).map_err(|e| decode_error(&e.to_string()))
    }

    /// As [`Page::from_value`], straight from the bytes of the answer (no JSON tree).
    /// Text that is not valid UTF-8 (one bad byte in one invoice) is read lossily: the
    /// bad bytes show as U+FFFD "�" in that field instead of failing the whole page.
    pub fn from_slice(bytes: &[u8]) -> Result<Page, ApiError> {
        // Borrowed, not copied, when the bytes are valid UTF-8.
        Page::from_text(&String::from_utf8_lossy(bytes))
    }

    /// As [`Page::from_slice`], from an answer already made text by [`page_text`].
    /// Decoding from checked text skips serde_json's check of each string (most of an
    /// invoice is strings).
    pub fn from_text(text: &str) -> Result<Page, ApiError> {
        let mut items = Vec::new();
        let end = read_listing(text, &mut items)?;
        Ok(end.with(items))
    }

    /// The invoices of a listing answer, decoded into `items` over the invoices already
    /// there (their room reused; the list is then as long as the page's). For a long
    /// listing read page after page into one list; its paging is [`Paging::from_text`]'s.
    pub fn read_into(text: &str, items: &mut Vec<Invoice>) -> Result<(), ApiError> {
        read_listing(text, items).map(|_| ())
    }
}

/// A listing page's paging and how many entries its list has, read as [`Page`] reads them
/// but with its invoices passed over (serde's `IgnoredAny`): what fetching the next page
/// needs, at a small part of decoding the page.
#[derive(Debug, PartialEq)]
pub struct Paging {
    /// How many entries the list has.
    pub entries: usize,
    /// How to get the next page; `None` at the end.
    pub next: Option<NextPage>,
    /// How many invoices in all, when the service says.
    pub total: Option<u64>,
}

impl Paging {
    /// Reads a listing answer's paging (see [`Page::from_text`]).
    pub fn from_text(text: &str) -> Result<Paging, ApiError> {
        let mut entries = Counted(0);
        let end = read_listing(text, &mut entries)?;
        Ok(Paging {
            entries: entries.0,
            next: end.next,
            total: end.total,
        })
    }
}

/// An answer's bytes as text, checked once, whole, and without a copy when they are
/// valid UTF-8; otherwise read lossily (see [`Page::from_slice`]).
pub fn page_text(body: Vec<u8>) -> String {
    String::from_utf8(body).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// How to go on, from the listing's paging fields.
fn next_page(meta: &Map<String, Value>) -> Option<NextPage> {
    let ident = |k: &str| match meta.get(k) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let has_more = meta.get("has_more").and_then(Value::as_bool);
    if has_more == Some(false) {
        None
    } else if let Some(c) = ident("next_cursor") {
        Some(NextPage::Cursor(c))
    } else if let Some(n) = ident("next") {
        if n.starts_with("http://") || n.starts_with("https://") || n.starts_with('/') {
            Some(NextPage::Url(n))
        } else if let Ok(num) = n.parse::<u64>() {
            Some(NextPage::Number(num))
        } else {
            Some(NextPage::Cursor(n))
        }
    } else if let Some(n) = meta.get("next_page").and_then(as_u64) {
        Some(NextPage::Number(n))
    } else if let Some(page) = meta.get("page").and_then(as_u64) {
        let last = ["total_pages", "pages", "last_page"]
            .iter()
            .find_map(|k| meta.get(*k).and_then(as_u64));
        match (last, has_more) {
            (Some(last), _) if page < last => Some(NextPage::Number(page + 1)),
            (None, Some(true)) => Some(NextPage::Number(page + 1)),
            _ => None,
        }
    } else {
        None
    }
}

fn as_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Where a listing's entries go as they are read: a page's invoices (decoded into the
/// invoices already there, reusing their room) or, for the paging alone, a count.
trait Entries {
    /// Reads a list's entries, replacing what was there.
    fn read<'de, A: serde::de::SeqAccess<'de>>(&mut self, seq: A) -> Result<(), A::Error>;
}

impl Entries for Vec<Invoice> {
    fn read<'de, A: serde::de::SeqAccess<'de>>(&mut self, mut seq: A) -> Result<(), A::Error> {
        let mut n = 0;
        loop {
            let more = match self.get_mut(n) {
                // The invoice already here is written over, its text's room reused: a page
                // of a long listing costs no allocation for most fields.
                Some(inv) => seq.next_element_seed(InPlace(inv))?.is_some(),
                None => match seq.next_element::<Invoice>()? {
                    Some(inv) => {
                        self.push(inv);
                        true
                    }
                    None => false,
                },
            };
            if !more {
                break;
            }
            n += 1;
        }
        self.truncate(n);
        Ok(())
    }
}

/// Entries passed over (serde's `IgnoredAny`), counted.
struct Counted(usize);

impl Entries for Counted {
    fn read<'de, A: serde::de::SeqAccess<'de>>(&mut self, mut seq: A) -> Result<(), A::Error> {
        self.0 = 0;
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            self.0 += 1;
        }
        Ok(())
    }
}

/// An invoice decoded over another (serde's in-place decoding).
struct InPlace<'a>(&'a mut Invoice);

impl<'de> serde::de::DeserializeSeed<'de> for InPlace<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        Invoice::deserialize_in_place(d, self.0)
    }
}

/// The list of a listing object, read into `E`: true for an array, false (nothing read)
/// for any other shape.
struct List<'a, E>(&'a mut E);

impl<'de, E: Entries> serde::de::DeserializeSeed<'de> for List<'_, E> {
    type Value = bool;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        struct V<'a, E>(&'a mut E);
        impl<'de, E: Entries> serde::de::Visitor<'de> for V<'_, E> {
            type Value = bool;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of invoices")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
                self.0.read(seq)?;
                Ok(true)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(false)
            }
            fn visit_bool<Er>(self, _: bool) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_i64<Er>(self, _: i64) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_u64<Er>(self, _: u64) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_f64<Er>(self, _: f64) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_str<Er>(self, _: &str) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_unit<Er>(self) -> Result<bool, Er> {
                Ok(false)
            }
            fn visit_none<Er>(self) -> Result<bool, Er> {
                Ok(false)
            }
        }
        d.deserialize_any(V(self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Page {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut items = Vec::new();
        let end = serde::de::DeserializeSeed::deserialize(Listing(&mut items), d)?;
        Ok(end.with(items))
    }
}

/// What a listing answer says besides its entries.
struct End {
    next: Option<NextPage>,
    total: Option<u64>,
}

impl End {
    /// The page of these invoices.
    fn with(self, items: Vec<Invoice>) -> Page {
        Page {
            items,
            next: self.next,
            total: self.total,
        }
    }
}

/// A listing answer whose list entries are read into `E` (see [`List`]).
struct Listing<'a, E>(&'a mut E);

impl<'de, E: Entries> serde::de::DeserializeSeed<'de> for Listing<'_, E> {
    type Value = End;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<End, D::Error> {
        struct V<'a, E>(&'a mut E);
        impl<'de, E: Entries> serde::de::Visitor<'de> for V<'_, E> {
            type Value = End;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a listing: an array, or an object with items, data or results")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<End, A::Error> {
                self.0.read(seq)?;
                Ok(End {
                    next: None,
                    total: None,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<End, A::Error> {
                let mut listed = false;
                let mut meta = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    if list_key(&key) && !listed {
                        listed = map.next_value_seed(List(&mut *self.0))?;
                    } else if paging_key(&key) {
                        let v: Value = map.next_value()?;
                        meta.insert(key, v);
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                if !listed {
                    return Err(serde::de::Error::custom(
                        "the listing has no items, data or results array",
                    ));
                }
                let total = meta
                    .get("total")
                    .or_else(|| meta.get("count"))
                    .and_then(as_u64);
                Ok(End {
                    next: next_page(&meta),
                    total,
                })
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// Reads a listing answer's text, its entries into `entries`.
fn read_listing(text: &str, entries: &mut impl Entries) -> Result<End, ApiError> {
    let mut d = serde_json::Deserializer::from_str(text);
    let end = serde::de::DeserializeSeed::deserialize(Listing(entries), &mut d)
        .and_then(|end| d.end().map(|()| end))
        .map_err(|e| decode_error(&e.to_string()))?;
    Ok(end)
}

/// The keys of a listing object whose value is its list (the first that is an array).
fn list_key(key: &str) -> bool {
    matches!(key, "items" | "data" | "results" | "invoices")
}

/// The keys of a listing object that say how it goes on, kept as `Value`s.
fn paging_key(key: &str) -> bool {
    matches!(
        key,
        "next_cursor"
            | "next"
            | "next_page"
            | "page"
            | "total_pages"
            | "pages"
            | "last_page"
            | "has_more"
            | "total"
            | "count"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A listing answer as text: invoices (and now and then something else) under one of
    /// the list keys, or bare, with paging fields of every kind, keys repeated at times.
    /// `usual`: an object with one list and paging fields of plain values only, before
    /// or after it.
    fn listing_text(usual: bool) -> BoxedStrategy<String> {
        // Text that could be taken for structure: quotes, brackets, escapes.
        let tricky = prop_oneof![
            Just(r#"a \"quoted\" ]}, {["#),
            Just(r#"back\\"#),
            Just(r#"\\\"[\\"#),
            Just(r#"\u005d\u0022 ñ 🙂"#),
            Just("plain"),
        ];
        let invoice = (0u32..1000, prop::bool::ANY, tricky).prop_map(|(n, odd, text)| {
            if odd {
                format!(
                    r#"{{ "id" : "in_{n}" , "amount":"{n}.5","currency_code":"CLF","x":[1,{{"y":null}}],"description":"{text}" }}"#
                )
            } else {
                format!(
                    r#"{{"id":"in_{n}","amount":{n},"currency_code":"CLP","customer":"cus_1","{text}":[]}}"#
                )
            }
        });
        let entry = prop_oneof![
            8 => invoice,
            1 => prop_oneof![Just("1"), Just("null"), Just("\"x\""), Just("[]")].prop_map(String::from),
        ];
        let list = prop::collection::vec(entry, 0..8).prop_map(|v| format!("[{}]", v.join(",")));
        let value = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            Just("\"\"".to_string()),
            (0u64..5).prop_map(|n| n.to_string()),
            (0u64..5).prop_map(|n| format!("\"{n}\"")),
            "[a-z]{1,4}".prop_map(|c| format!("\"{c}\"")),
            Just("\"https://h/p?page=2\"".to_string()),
            Just("\"/invoices?cursor=z\"".to_string()),
            Just(r#""c\"]2""#.to_string()),
            Just(r#""d\\""#.to_string()),
            Just(r#""e\"[""#.to_string()),
        ];
        let value = if usual {
            value.boxed()
        } else {
            prop_oneof![
                8 => value,
                1 => Just("{}".to_string()),
                1 => Just(r#"[{"next_cursor":"no"}]"#.to_string()),
            ]
            .boxed()
        };
        let key = prop_oneof![
            Just("next_cursor"),
            Just("next"),
            Just("next_page"),
            Just("page"),
            Just("total_pages"),
            Just("pages"),
            Just("last_page"),
            Just("has_more"),
            Just("total"),
            Just("count"),
            Just("other"),
            Just(r"next\u005fcursor"),
            Just(r"\u0022items"),
        ];
        // Not a list: the key is passed over and a later list key counts.
        let list_value = prop_oneof![
            4 => list.clone(),
            1 => prop_oneof![Just("{}"), Just("null"), Just(r#"{"a":[1,"]"]}"#), Just("7")]
                .prop_map(String::from),
        ];
        let list_value = if usual {
            list.clone().boxed()
        } else {
            list_value.boxed()
        };
        let list_key = prop_oneof![
            Just("items"),
            Just("data"),
            Just("results"),
            Just("invoices"),
            Just(r"ite\u006ds"),
        ];
        let object = (
            prop::collection::vec((list_key, list_value), 1..if usual { 2 } else { 3 }),
            prop::collection::vec((key, value), 0..6),
            prop::bool::ANY,
        )
            .prop_map(|(lists, paging, lists_first)| {
                let lists = lists.into_iter().map(|(k, v)| format!("\"{k}\":{v}"));
                let paging = paging.into_iter().map(|(k, v)| format!("\"{k}\" : {v}"));
                let all: Vec<String> = if lists_first {
                    lists.chain(paging).collect()
                } else {
                    paging.chain(lists).collect()
                };
                format!(" {{{}}}\n", all.join(" ,\n "))
            });
        if usual {
            object.boxed()
        } else {
            prop_oneof![1 => list, 4 => object].boxed()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// A listing of the usual shape (one list) reads the same straight from the text
        /// as from its JSON tree (which keeps the last of repeated keys: the text, the
        /// first list).
        #[test]
        fn a_listing_reads_the_same_from_text_and_tree(text in listing_text(true)) {
            let tree = serde_json::from_str::<Value>(&text)
                .map_err(|e| decode_error(&e.to_string()))
                .and_then(Page::from_value);
            prop_assert_eq!(Page::from_text(&text).ok(), tree.ok(), "{}", text);
        }

        /// The paging read alone is the page's, and reading any answer, or half of one,
        /// never panics.
        #[test]
        fn the_paging_alone_is_the_pages(
            text in prop_oneof![listing_text(true), listing_text(false)]
        ) {
            if let Ok(page) = Page::from_text(&text) {
                let paging = Paging { entries: page.items.len(), next: page.next, total: page.total };
                prop_assert_eq!(Paging::from_text(&text).ok(), Some(paging), "{}", text);
            }
            let half = (0..=text.len() / 2).rev().find(|&n| text.is_char_boundary(n));
            // Cut short, a list or object is never whole.
            prop_assert!(Page::from_text(&text[..half.unwrap_or(0)]).is_err(), "{}", text);
            prop_assert!(Paging::from_text(&text[..half.unwrap_or(0)]).is_err(), "{}", text);
        }
    }
}
