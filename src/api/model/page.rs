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
        match std::str::from_utf8(bytes) {
            Ok(text) => Page::from_text(text),
            Err(_) => Page::from_text(&String::from_utf8_lossy(bytes)),
        }
    }

    /// As [`Page::from_slice`], from an answer already made text by [`page_text`].
    /// Decoding from checked text skips serde_json's check of each string (most of an
    /// invoice is strings).
    pub fn from_text(text: &str) -> Result<Page, ApiError> {
        serde_json::from_str::<Listing<Invoice>>(text)
            .map(|l| Page {
                items: l.items,
                next: l.next,
                total: l.total,
            })
            .map_err(|e| decode_error(&e.to_string()))
    }
}

/// An answer's bytes as text, checked once, whole, and without a copy when they are
/// valid UTF-8; otherwise read lossily (see [`Page::from_slice`]).
pub fn page_text(body: Vec<u8>) -> String {
    String::from_utf8(body).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// What following a listing needs of a page, without decoding its invoices: how many
/// there are and how to go on. Read by the same rules as [`Page`], so both agree.
#[derive(Debug, PartialEq)]
pub struct PageMeta {
    /// How many entries the page's list has.
    pub count: u64,
    /// How to get the next page; `None` at the end.
    pub next: Option<NextPage>,
}

impl PageMeta {
    /// Reads the paging of a listing answer made text by [`page_text`]; the invoices are
    /// skipped, not decoded. Fails where the JSON is broken or has no list.
    pub fn from_text(text: &str) -> Result<PageMeta, ApiError> {
        serde_json::from_str::<Listing<serde::de::IgnoredAny>>(text)
            .map(|l| PageMeta {
                count: l.items.len() as u64,
                next: l.next,
            })
            .map_err(|e| decode_error(&e.to_string()))
    }
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

/// The list of a listing object: `Some` for an array, `None` for any other shape.
/// `T` is [`Invoice`] to decode a page, [`serde::de::IgnoredAny`] to count its entries.
struct MaybeList<T>(Option<Vec<T>>);

impl<'de, T: Deserialize<'de>> serde::Deserialize<'de> for MaybeList<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = MaybeList<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of invoices")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<MaybeList<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(i) = seq.next_element::<T>()? {
                    items.push(i);
                }
                Ok(MaybeList(Some(items)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<MaybeList<T>, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(MaybeList(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_unit<E>(self) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
            fn visit_none<E>(self) -> Result<MaybeList<T>, E> {
                Ok(MaybeList(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de> serde::Deserialize<'de> for Page {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let l = Listing::<Invoice>::deserialize(d)?;
        Ok(Page {
            items: l.items,
            next: l.next,
            total: l.total,
        })
    }
}

/// A listing answer whose list entries are `T` (see [`MaybeList`]).
struct Listing<T> {
    items: Vec<T>,
    next: Option<NextPage>,
    total: Option<u64>,
}

impl<'de, T: Deserialize<'de>> serde::Deserialize<'de> for Listing<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Listing<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a listing: an array, or an object with items, data or results")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Listing<T>, A::Error> {
                let list =
                    MaybeList::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(Listing {
                    items: list.0.unwrap_or_default(),
                    next: None,
                    total: None,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Listing<T>, A::Error> {
                let mut items = None;
                let mut meta = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "items" | "data" | "results" | "invoices" if items.is_none() => {
                            items = map.next_value::<MaybeList<T>>()?.0
                        }
                        "next_cursor" | "next" | "next_page" | "page" | "total_pages" | "pages"
                        | "last_page" | "has_more" | "total" | "count" => {
                            let v: Value = map.next_value()?;
                            meta.insert(key, v);
                        }
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                let items = items.ok_or_else(|| {
                    serde::de::Error::custom("the listing has no items, data or results array")
                })?;
                let total = meta
                    .get("total")
                    .or_else(|| meta.get("count"))
                    .and_then(as_u64);
                Ok(Listing {
                    items,
                    next: next_page(&meta),
                    total,
                })
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}
