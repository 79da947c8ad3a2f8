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

use super::decode::{Field, Fields, Raw, blank, decode_into, plain_json_number};
use super::fields::{KNOWN_FIELDS, Shape, at, known_index};
use super::page::{Listing, PlainPage, list_key, paging_key};
use super::plain::{MAX_PLAIN_OTHERS, PlainInvoice, Slot};
use super::{Invoice, Page, spare};
use crate::api::money;
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
    listing::<Vec<Invoice>>(text).map(Page::from)
}

/// Reads a listing answer whose invoices are all plain (see [`PlainInvoice`]), or gives
/// up: then [`page`] (or serde_json) reads it into decoded invoices.
pub(super) fn plain_page(text: &str) -> Result<PlainPage<'_>, Unsure> {
    listing::<Vec<PlainInvoice<'_>>>(text).map(PlainPage::from)
}

/// A listing answer: a bare array or an object, the whole text.
fn listing<'a, L: List<'a>>(text: &'a str) -> Result<Listing<L::Item>, Unsure> {
    let mut r = Reader { text, at: 0 };
    r.ws();
    let listing = match r.peek() {
        Some(b'[') => Listing::bare(r.invoices::<L>()?),
        Some(b'{') => r.listing_object::<L>()?,
        _ => return Err(Unsure),
    };
    r.ws();
    if r.at != text.len() {
        L::give_back(listing.into_items());
        return Err(Unsure);
    }
    Ok(listing)
}

/// The list a page's invoices are read into: decoded invoices (into the page given back
/// last, see `spare`), or plain ones borrowed from the text.
trait List<'a>: Sized {
    type Item;
    /// An empty list, or one whose entries are decoded into.
    fn begin(text: &'a str) -> Vec<Self::Item>;
    /// Reads the invoice at the reader (after its `{`) into entry `n`.
    fn read(items: &mut Vec<Self::Item>, n: usize, r: &mut Reader<'a>) -> Result<(), Unsure>;
    /// A list not used after all.
    fn give_back(items: Vec<Self::Item>);
}

impl<'a> List<'a> for Vec<Invoice> {
    type Item = Invoice;
    fn begin(_: &'a str) -> Vec<Invoice> {
        spare::page()
    }
    fn read(items: &mut Vec<Invoice>, n: usize, r: &mut Reader<'a>) -> Result<(), Unsure> {
        let fields = InvoiceFields { r, first: true };
        match items.get_mut(n) {
            Some(used) => decode_into(used, fields),
            None => {
                let mut inv = Invoice::empty();
                let done = decode_into(&mut inv, fields);
                items.push(inv);
                done
            }
        }
    }
    fn give_back(items: Vec<Invoice>) {
        Invoice::recycle_page(items);
    }
}

impl<'a> List<'a> for Vec<PlainInvoice<'a>> {
    type Item = PlainInvoice<'a>;
    fn begin(text: &'a str) -> Vec<PlainInvoice<'a>> {
        // About one invoice in 300 bytes of answer: the list is made once, not grown.
        Vec::with_capacity((text.len() / 256).min(4096))
    }
    fn read(items: &mut Vec<PlainInvoice<'a>>, _: usize, r: &mut Reader<'a>) -> Result<(), Unsure> {
        let inv = r.plain_invoice()?;
        items.push(inv);
        Ok(())
    }
    fn give_back(_: Vec<PlainInvoice<'a>>) {}
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
                self.at += number_len(rest);
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

    /// An invoice (after its `{`) when every field of it is plain (see [`PlainInvoice`]);
    /// anything else gives up, and the page is decoded instead. What is taken here is
    /// what `decode_into` makes of the same field, for the shapes it takes: a proptest
    /// checks `to_invoice` against decoding.
    fn plain_invoice(&mut self) -> Result<PlainInvoice<'a>, Unsure> {
        let mut inv = PlainInvoice::default();
        let mut seen = 0u16;
        let mut first = true;
        while self.another(first, b'}')? {
            first = false;
            let key = self.plain_string()?;
            self.expect(b':')?;
            self.ws();
            match known_index(key) {
                // An alias, or a field sent twice: decoding has rules for those.
                Some(at::CUSTOMER_ID) => return Err(Unsure),
                Some(i) if seen & (1 << i) != 0 => return Err(Unsure),
                Some(i) => {
                    seen |= 1 << i;
                    inv.known[i] = self.plain_slot(KNOWN_FIELDS[i].shape)?;
                }
                None => {
                    let value = self.plain_string()?;
                    let n = inv.other_count;
                    if n == MAX_PLAIN_OTHERS || inv.others[..n].iter().any(|(k, _)| *k == key) {
                        return Err(Unsure);
                    }
                    inv.others[n] = (key, value);
                    inv.other_count = n + 1;
                }
            }
        }
        match inv.known[at::ID] {
            Slot::Text(_) => Ok(inv),
            _ => Err(Unsure),
        }
    }

    /// A string without escapes at the reader.
    fn plain_string(&mut self) -> Result<&'a str, Unsure> {
        match self.peek() {
            Some(b'"') => match self.string()? {
                (s, false) => Ok(s),
                (_, true) => Err(Unsure),
            },
            _ => Err(Unsure),
        }
    }

    /// A flat object of text at the reader that is its own compact JSON (as serde_json
    /// writes it again): no white space, no escapes, no other value than text, no name
    /// twice, and none of the names serde_json gives a meaning of its own (`$…`).
    fn compact_flat_object(&mut self) -> Result<&'a str, Unsure> {
        const MAX_NAMES: usize = 8;
        let start = self.at;
        self.at += 1;
        let mut names = [""; MAX_NAMES];
        let mut n = 0;
        if self.peek() != Some(b'}') {
            loop {
                let name = self.plain_string()?;
                if name.starts_with('$') || n == MAX_NAMES || names[..n].contains(&name) {
                    return Err(Unsure);
                }
                names[n] = name;
                n += 1;
                if self.peek() != Some(b':') {
                    return Err(Unsure);
                }
                self.at += 1;
                self.plain_string()?;
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b'}') => break,
                    _ => return Err(Unsure),
                }
            }
        }
        self.at += 1;
        Ok(&self.text[start..self.at])
    }

    /// A known field's value, of this shape, when it is plain: as `decode_into` takes it.
    fn plain_slot(&mut self, shape: Shape) -> Result<Slot<'a>, Unsure> {
        let rest = &self.text.as_bytes()[self.at..];
        let (slot, len) = match (rest.first().ok_or(Unsure)?, shape) {
            (b'"', Shape::Text) => return self.plain_string().map(Slot::Text),
            // An identifier of blanks is absent (the id: none), which decoding settles.
            (b'"', Shape::Id | Shape::Ident) => {
                let s = self.plain_string()?;
                return if blank(s) {
                    Err(Unsure)
                } else {
                    Ok(Slot::Text(s))
                };
            }
            (b't', Shape::Flag) if rest.starts_with(b"true") => (Slot::Flag(true), 4),
            (b'f', Shape::Flag) if rest.starts_with(b"false") => (Slot::Flag(false), 5),
            (b'n', shape) if shape != Shape::Id && rest.starts_with(b"null") => (Slot::Absent, 4),
            (b'{', Shape::Json) => return self.compact_flat_object().map(Slot::Json),
            (b'0'..=b'9', Shape::Amount) => {
                let len = number_len(rest);
                let text = &self.text[self.at..self.at + len];
                let amount = match plain_number(text).ok_or(Unsure)? {
                    Ok(n) => rust_decimal::Decimal::from_i128_with_scale(n.into(), 0),
                    Err(text) => money::parse_plain_decimal(text).ok_or(Unsure)?,
                };
                (Slot::Amount(amount), len)
            }
            _ => return Err(Unsure),
        };
        self.at += len;
        Ok(slot)
    }

    /// The list at the reader (`[`), read into a list of kind `L` (decoded ones into the
    /// page given back last, as `MaybeList` does), or giving up (that list given back).
    fn invoices<L: List<'a>>(&mut self) -> Result<Vec<L::Item>, Unsure> {
        self.at += 1;
        let mut items = L::begin(self.text);
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
            if let Err(e) = L::read(&mut items, n, self) {
                break Err(e);
            }
            n += 1;
        };
        if let Err(e) = read {
            L::give_back(items);
            return Err(e);
        }
        items.truncate(n);
        Ok(items)
    }

    /// A listing object (at its `{`): its list and its paging fields, as `Listing` reads
    /// them.
    fn listing_object<L: List<'a>>(&mut self) -> Result<Listing<L::Item>, Unsure> {
        self.at += 1;
        let mut items: Option<Vec<L::Item>> = None;
        let mut meta = Map::new();
        let read = (|| {
            let mut first = true;
            while self.another(first, b'}')? {
                first = false;
                let key = self.key()?;
                self.ws();
                if list_key(&key) && items.is_none() && self.peek() == Some(b'[') {
                    items = Some(self.invoices::<L>()?);
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
        match read {
            Ok(()) => Listing::of(items, &meta).map_err(|_| Unsure),
            Err(e) => {
                if let Some(items) = items {
                    L::give_back(items);
                }
                Err(e)
            }
        }
    }
}

/// How many bytes at the start of `rest` can belong to a number (checked afterwards by
/// [`plain_json_number`]).
fn number_len(rest: &[u8]) -> usize {
    rest.iter()
        .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        .unwrap_or(rest.len())
}

/// A number as `Raw` reads it, when it is written plainly (as serde_json keeps the text
/// of the numbers it reads): a whole number that fits 64 bits as one (as serde_json hands
/// it over), any other as its text. `None`: read by serde_json instead.
fn number(text: &str) -> Option<Raw<'_>> {
    Some(match plain_number(text)? {
        Ok(n) => Raw::Int(n.into()),
        Err(text) => Raw::Number(text.to_owned()),
    })
}

/// [`number`] without making a `Raw`: a whole number, or the text of any other.
fn plain_number(text: &str) -> Option<Result<u64, &str>> {
    if !plain_json_number(text) {
        return None;
    }
    if text.bytes().any(|c| c == b'.' || c == b'e') {
        return Some(Err(text));
    }
    // A negative one is left to serde_json, which keeps `-0` as text.
    if text.starts_with('-') {
        return None;
    }
    Some(text.parse::<u64>().map_err(|_| text))
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
/// run of a string (a sixth of an export's CPU). On x86-64, sixteen bytes at a time with
/// SSE2 (part of every x86-64 processor), the last few by [`next_special_words`].
#[cfg(target_arch = "x86_64")]
fn next_special(b: &[u8], mut i: usize) -> Option<usize> {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    while i.checked_add(16).is_some_and(|end| end <= b.len()) {
        // SAFETY: the sixteen bytes read, from `i`, are in `b` (checked above); an
        // unaligned load needs no alignment; SSE2 is always there on x86-64.
        let found = unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            // Below 0x20, unsigned: the byte is its own minimum with 0x1f.
            let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
        };
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize);
        }
        i += 16;
    }
    next_special_words(b, i)
}

/// [`next_special`] elsewhere.
#[cfg(not(target_arch = "x86_64"))]
fn next_special(b: &[u8], i: usize) -> Option<usize> {
    next_special_words(b, i)
}

/// [`next_special`] eight bytes at a time (as serde_json's own scan): a byte is found by
/// the high bit of `(x - 0x01…01) & !x` for `x` the word with it made zero, and one below
/// 0x20 by `(w - 0x20…20) & !w`; the lowest byte flagged is always a real one.
fn next_special_words(b: &[u8], mut i: usize) -> Option<usize> {
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

    /// A plain reading as the page decoding makes of the same text.
    fn plain_as_decoded(text: &str) -> Result<Page, Unsure> {
        plain_page(text).map(|p| Page {
            items: p.items.iter().map(PlainInvoice::to_invoice).collect(),
            next: p.next,
            total: p.total,
        })
    }

    #[test]
    fn the_usual_answer_is_plain_and_means_what_decoding_makes_of_it() {
        // The sandbox's page, as `invoice-desk sandbox --big-customer` sends it.
        let text = r#"{"items":[{"id":"in_bdb9ax1ekkna7g","customer":"cus_big","product_id":"prod_asesoria","due_date":"2024-07-15","amount":3962000,"currency_code":"CLP","is_paid":false,"is_void":false,"link_payment":"https://pay.sandbox.invalid/in_bdb9ax1ekkna7g","invoice_external_id":null,"metadata":{},"created_at":"2024-06-15T12:00:00Z"},{"id":"in_bcght3ni6be7zg","customer":"cus_big","product_id":"prod_asesoria","due_date":"2024-12-17","amount":121.4522,"currency_code":"CLF","is_paid":true,"is_void":false,"link_payment":"https://pay.sandbox.invalid/in_bcght3ni6be7zg","invoice_external_id":"ERP-2024-503053","metadata":{},"created_at":"2024-11-17T12:00:00Z"}],"next_cursor":"cG9zOjEwMDA","total":3000}"#;
        let plain = plain_as_decoded(text).expect("plain");
        assert_eq!(Ok(&plain), by_serde(text).as_ref());
        assert_eq!(plain.items.len(), 2);
        assert_eq!(plain.items[1].amount, Some("121.4522".parse().unwrap()));
        assert_eq!(plain.total, Some(3000));
        // A status text, every field absent that may be, and white space.
        let text = r#"[ {"id" : "in_1", "status": " Paid ", "amount": 10.50, "customer": null, "metadata": null, "note": "=1+2"} ]"#;
        assert_eq!(
            Ok(&plain_as_decoded(text).expect("plain")),
            by_serde(text).as_ref()
        );
        // Metadata of text, as the sandbox sends for some.
        let text = r#"[{"id":"in_1","metadata":{"centro_costo":"Ñuñoa","ceco":""}}]"#;
        assert_eq!(
            Ok(&plain_as_decoded(text).expect("plain")),
            by_serde(text).as_ref()
        );
    }

    #[test]
    fn what_is_not_plain_is_decoded_instead() {
        for field in [
            r#""note":"Jos\u00e9""#,
            r#""n\u006fte":"x""#,
            r#""customer_id":"cus_1""#,
            r#""customer":"  ""#,
            r#""customer":7"#,
            r#""amount":-5"#,
            r#""amount":"5""#,
            r#""amount":1e400"#,
            r#""amount":null,"amount":1"#,
            r#""is_paid":"true""#,
            r#""is_paid":1"#,
            r#""metadata":{ }"#,
            r#""metadata":{"k": "v"}"#,
            r#""metadata":{"k":"v","k":"w"}"#,
            r#""metadata":{"k":1}"#,
            r#""metadata":{"k":"\u00e9"}"#,
            r#""metadata":{"$serde_json::private::Number":"1"}"#,
            r#""due_date":5"#,
            r#""note":null"#,
            r#""note":1"#,
            r#""note":"a","note":"b""#,
            r#""a":"1","b":"2","c":"3","d":"4","e":"5""#,
        ] {
            let text = format!(r#"{{"items":[{{"id":"in_1",{field}}}]}}"#);
            assert!(plain_page(&text).is_err(), "{text}");
            assert!(Page::from_text(&text).is_ok(), "{text}");
        }
        for id in [r#""id":null"#, r#""id":" ""#, r#""id":7"#, r#""x":"1""#] {
            let text = format!(r#"[{{{id}}}]"#);
            assert!(plain_page(&text).is_err(), "{text}");
        }
        // Four others are still plain.
        let text = r#"[{"id":"in_1","a":"1","b":"2","c":"3","d":"4"}]"#;
        assert_eq!(
            Ok(&plain_as_decoded(text).expect("plain")),
            by_serde(text).as_ref()
        );
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
        // Past two blocks of sixteen and a tail, over plain ASCII and over bytes of
        // multi-byte characters (0x80 and above: never a control character).
        for filler in [b'a', 0xc3, 0x80, 0xff, 0x20] {
            for len in 0..48 {
                for at in 0..len {
                    for c in [b'"', b'\\', 0u8, 0x1f] {
                        let mut b = vec![filler; len];
                        b[at] = c;
                        // Bytes that look alike to the word trick just after it.
                        if at + 1 < len {
                            b[at + 1] = 0x21;
                        }
                        for find in [next_special, next_special_words] {
                            assert_eq!(find(&b, 0), Some(at), "{b:?}");
                            assert_eq!(find(&b, at + 1), None, "{b:?}");
                            assert_eq!(find(&b, at), Some(at), "{b:?}");
                        }
                    }
                }
                let plain = vec![filler; len];
                assert_eq!(next_special(&plain, 0), None);
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
            if let Ok(plain) = plain_as_decoded(&text) {
                prop_assert_eq!(Ok(&plain), theirs.as_ref(), "{}", text);
            }
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
            if let Ok(plain) = plain_as_decoded(&text) {
                prop_assert_eq!(Ok(&plain), theirs.as_ref(), "{}", text);
            }
            if let Ok(ours) = &ours {
                prop_assert_eq!(Ok(ours), theirs.as_ref(), "{}", text);
            }
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", text);
        }
    }

    /// A value a known or other field may have: mostly plain ones, of every shape (so
    /// that any field may be plain or not), now and then anything `value` makes.
    fn plain_leaning_value() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "\"[a-zA-Z0-9 =+@,;.:/_-]{0,8}\"",
            1 => Just("\" \"".to_string()),
            1 => Just("true".to_string()),
            1 => Just("false".to_string()),
            2 => Just("null".to_string()),
            1 => Just("{}".to_string()),
            2 => prop::sample::select(vec![
                r#"{"centro_costo":"Ñuñoa"}"#,
                r#"{"a":"x","b":"","c":"{\"}"}"#,
                r#"{"a":"x","a":"y"}"#,
                r#"{ "a":"x"}"#,
                r#"{"a": "x"}"#,
                r#"{"a":"x" }"#,
                r#"{"a":1}"#,
                r#"{"a":{}}"#,
                r#"{"a":"x",}"#,
                r#"{"$serde_json::private::Number":"1.5"}"#,
                r#"{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8","i":"9"}"#,
            ])
            .prop_map(str::to_string),
            2 => "[0-9]{1,22}(\\.[0-9]{1,6})?",
            1 => value(),
        ]
    }

    fn plain_leaning_invoice() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            4 => prop::sample::select(
                super::super::KNOWN_FIELDS
                    .iter()
                    .map(|f| format!("\"{}\"", f.name))
                    .collect::<Vec<_>>()
            ),
            1 => Just("\"created_at\"".to_string()),
            1 => "\"[a-z_]{1,8}\"",
            1 => key(),
        ];
        (
            prop_oneof![
                8 => "\"in_[a-z0-9]{1,6}\"",
                1 => plain_leaning_value(),
            ],
            prop::collection::vec((key, plain_leaning_value(), ws()), 0..10),
        )
            .prop_map(|(id, fields)| {
                let rest = fields
                    .iter()
                    .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}{w}"));
                let all: Vec<String> = std::iter::once(format!("\"id\":{id}"))
                    .chain(rest)
                    .collect();
                format!("{{{}}}", all.join(","))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// A page read plain means what decoding makes of it, field by field (the test
        /// below checks that many of these pages are read plain).
        #[test]
        fn a_plain_page_is_what_decoding_makes_of_it(
            invoices in prop::collection::vec(plain_leaning_invoice(), 0..4),
            bare in any::<bool>(),
        ) {
            let list = format!("[{}]", invoices.join(","));
            let text = if bare { list } else { format!("{{\"items\":{list},\"next_cursor\":\"c\",\"total\":9}}") };
            let theirs = by_serde(&text);
            if let Ok(plain) = plain_as_decoded(&text) {
                prop_assert_eq!(Ok(&plain), theirs.as_ref(), "{}", text);
            }
        }
    }

    /// The pages the proptest above makes are read plain often enough to test it.
    #[test]
    fn many_plain_leaning_pages_are_plain() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut plain, mut pages) = (0, 0);
        for _ in 0..2000 {
            let invoice = plain_leaning_invoice()
                .new_tree(&mut runner)
                .unwrap()
                .current();
            pages += 1;
            if plain_page(&format!("[{invoice}]")).is_ok() {
                plain += 1;
            }
        }
        assert!(plain * 10 >= pages, "{plain} of {pages}");
    }

    /// The sandbox's listing pages (what the export benches and a clerk's tryout read)
    /// are plain, page after page, and mean what decoding makes of them.
    #[cfg(feature = "sandbox")]
    #[test]
    fn the_sandbox_pages_are_plain() {
        use crate::sandbox::data::{BIG_CUSTOMER, Data, ORG_OAUTH};
        let data = Data::seeded(1, 5000);
        let mut start = Some(0);
        let mut pages = 0;
        while let Some(pos) = start {
            let mut out = b"{\"items\":[".to_vec();
            start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
            out.extend_from_slice(b"],\"next_cursor\":\"x\"}");
            let text = String::from_utf8(out).unwrap();
            let plain = plain_as_decoded(&text).expect("plain");
            assert_eq!(Ok(&plain), by_serde(&text).as_ref());
            assert_eq!(plain.items.len(), 1000);
            pages += 1;
        }
        assert_eq!(pages, 5);
    }
}
