//! Decoding an invoice straight from the JSON stream (no tree), along the table of known
//! fields. A known field's value is read as text, a boolean or null without building a
//! JSON value (most fields are text), anything else as a small `Value`; it is converted by
//! its [`Shape`] and stored in the invoice as it arrives. A shape that does not fit stays
//! visible in `extra` instead of failing the invoice. Hand-written visitors, because
//! decoding into serde's derived structs either fails whole invoices on one odd field or
//! needs a JSON tree; `cargo bench --bench perf -- decode` compares this path with serde
//! into plain structs (a tree costs about 0.26× of that speed).

use super::fields::{Decoded, KNOWN_FIELDS, Shape, at, known_index};
use super::invoice::{Invoice, compact, id_text};
use crate::api::money;
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;

/// A field name: the index of a known field, or another name (borrowed from the answer
/// when it has no escapes).
pub(super) enum Field<'de> {
    Known(usize),
    Other(Cow<'de, str>),
}

impl<'de> Field<'de> {
    /// The field a name (as read) names.
    pub(super) fn of(name: Cow<'de, str>) -> Field<'de> {
        match known_index(&name) {
            Some(i) => Field::Known(i),
            None => Field::Other(name),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Field<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Name::deserialize(d).map(|Name(k)| Field::of(k))
    }
}

/// A field's value as read: text (borrowed from the answer when it has no escapes), a
/// boolean, null and a number with no JSON tree; any other value (an object, a list) as
/// a `Value`.
pub(super) enum Raw<'de> {
    Str(Cow<'de, str>),
    Bool(bool),
    Null,
    /// An integer that fits 64 bits (serde_json hands these over as integers).
    Int(i128),
    /// Any other number, as the exact text serde_json keeps (`arbitrary_precision`),
    /// checked to be one: what `Number::as_str` would give.
    Number(String),
    Other(Value),
}

/// The key under which serde_json's `arbitrary_precision` hands over a number's exact
/// text, as a map of one entry (serde_json's private name; a test checks it is still
/// this one).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A name as read (a field's, a key's, serde_json's number key): borrowed from the
/// answer when it has no escapes.
struct Name<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Name<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, k: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(k)))
            }
            fn visit_str<E>(self, k: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(k.to_owned())))
            }
            fn visit_string<E>(self, k: String) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(k)))
            }
        }
        d.deserialize_str(V)
    }
}

/// Whether `s` is a JSON number written as serde_json writes the ones it reads (an
/// exponent as `e` and a sign): then `Number::from_str` keeps it as it is.
pub(super) fn plain_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let whole = i;
    match digits(&mut i) {
        0 => return false,
        n if n > 1 && b[whole] == b'0' => return false,
        _ => {}
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if b.get(i) == Some(&b'e') {
        if !matches!(b.get(i + 1), Some(b'+' | b'-')) {
            return false;
        }
        i += 2;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The value under [`NUMBER_TOKEN`], read as `Value` reads it (a string holding a
/// number, the same errors), without parsing it again when it is plainly one.
struct NumberText<'de>(Raw<'de>);

impl NumberText<'_> {
    fn of<E: serde::de::Error>(s: Cow<'_, str>) -> Result<Self, E> {
        if plain_json_number(&s) {
            return Ok(NumberText(Raw::Number(s.into_owned())));
        }
        let n: serde_json::Number = s.parse().map_err(E::custom)?;
        Ok(NumberText(Raw::Other(Value::Number(n))))
    }
}

impl<'de> serde::Deserialize<'de> for NumberText<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = NumberText<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("string containing a number")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<NumberText<'de>, E> {
                NumberText::of(Cow::Borrowed(s))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<NumberText<'de>, E> {
                NumberText::of(Cow::Owned(s))
            }
        }
        d.deserialize_str(V)
    }
}

impl Raw<'_> {
    fn into_value(self) -> Value {
        match self {
            Raw::Str(s) => Value::String(s.into_owned()),
            Raw::Bool(b) => Value::Bool(b),
            Raw::Null => Value::Null,
            // Its decimal text, as for the u64 or i64 it came as.
            Raw::Int(n) => Value::from(n),
            // Checked to be a number when read: parsed again only for a JSON tree.
            Raw::Number(s) => s.parse().map_or_else(|_| Value::String(s), Value::Number),
            Raw::Other(v) => v,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Raw<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Raw<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Raw<'de>, E> {
                Ok(Raw::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Raw<'de>, E> {
                Ok(Raw::Str(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Raw<'de>, E> {
                Ok(Raw::Str(Cow::Owned(s)))
            }
            fn visit_bool<E>(self, b: bool) -> Result<Raw<'de>, E> {
                Ok(Raw::Bool(b))
            }
            fn visit_unit<E>(self) -> Result<Raw<'de>, E> {
                Ok(Raw::Null)
            }
            fn visit_none<E>(self) -> Result<Raw<'de>, E> {
                Ok(Raw::Null)
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Raw<'de>, D::Error> {
                Raw::deserialize(d)
            }
            fn visit_i64<E>(self, n: i64) -> Result<Raw<'de>, E> {
                Ok(Raw::Int(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Raw<'de>, E> {
                Ok(Raw::Int(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Raw<'de>, E> {
                Ok(Raw::Other(Value::from(n)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Raw<'de>, A::Error> {
                // What `Value` does with a map, but an exact number is kept as its text
                // (no second parse, no JSON tree).
                match map.next_key::<Name>()? {
                    None => Ok(Raw::Other(Value::Object(serde_json::Map::new()))),
                    Some(Name(k)) if k == NUMBER_TOKEN => Ok(map.next_value::<NumberText>()?.0),
                    Some(Name(first)) => {
                        let mut values = serde_json::Map::new();
                        values.insert(first.into_owned(), map.next_value()?);
                        while let Some((key, value)) = map.next_entry()? {
                            values.insert(key, value);
                        }
                        Ok(Raw::Other(Value::Object(values)))
                    }
                }
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Raw<'de>, A::Error> {
                Value::deserialize(SeqAccessDeserializer::new(seq)).map(Raw::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// [`convert`] for a value as read: a boolean into a flag and a number into an amount or
/// an identifier directly, null as absent, the rest through its `Value` (a text field's
/// text is written by [`put_text`] and does not come here).
fn convert_raw(shape: Shape, raw: Raw<'_>) -> Result<Option<Decoded>, Value> {
    match (shape, raw) {
        (_, Raw::Null) => Ok(None),
        (Shape::Flag, Raw::Bool(b)) => Ok(Some(Decoded::Flag(b))),
        // A number, as `convert` reads its `Value`: exact, its text as sent.
        (Shape::Amount, Raw::Int(n)) => Ok(Some(Decoded::Amount(Ok(
            rust_decimal::Decimal::from_i128_with_scale(n, 0),
        )))),
        (Shape::Amount, Raw::Number(s)) => Ok(Some(Decoded::Amount(
            money::parse_plain_decimal(&s).ok_or(s),
        ))),
        (Shape::Id | Shape::Ident, Raw::Int(n)) => Ok(Some(Decoded::Text(n.to_string()))),
        (Shape::Id | Shape::Ident, Raw::Number(s)) => Ok(Some(Decoded::Text(s))),
        (shape, raw) => convert(shape, raw.into_value()),
    }
}

/// Converts one known field's raw value by its shape. `Err` gives the value back when
/// its shape does not fit (it then goes to `extra`); `Ok(None)` is absent (null).
fn convert(shape: Shape, v: Value) -> Result<Option<Decoded>, Value> {
    match (shape, v) {
        (_, Value::Null) if shape != Shape::Amount => Ok(None),
        (Shape::Id | Shape::Ident, v @ (Value::String(_) | Value::Number(_))) => {
            Ok(id_text(v).map(Decoded::Text))
        }
        (Shape::Text, Value::String(s)) => Ok(Some(Decoded::Text(s))),
        (Shape::Flag, Value::Bool(b)) => Ok(Some(Decoded::Flag(b))),
        (Shape::Flag, Value::String(s)) if s.eq_ignore_ascii_case("true") => {
            Ok(Some(Decoded::Flag(true)))
        }
        (Shape::Flag, Value::String(s)) if s.eq_ignore_ascii_case("false") => {
            Ok(Some(Decoded::Flag(false)))
        }
        (Shape::Flag, Value::Number(n)) if n.to_string() == "1" => Ok(Some(Decoded::Flag(true))),
        (Shape::Flag, Value::Number(n)) if n.to_string() == "0" => Ok(Some(Decoded::Flag(false))),
        (Shape::Amount, Value::Null) => Ok(None),
        (Shape::Amount, v) => Ok(Some(Decoded::Amount(
            money::from_json(&v).ok_or_else(|| compact(&v)),
        ))),
        (Shape::Json, v) => Ok(Some(Decoded::Json(v))),
        (_, other) => Err(other),
    }
}

/// Text read for the known field `KNOWN_FIELDS[i]`, as [`convert`] reads text (an
/// identifier of blanks is absent), for the fields that hold text. `Err` gives the text
/// back for any other field.
fn put_text<'a>(inv: &mut Invoice, i: usize, s: Cow<'a, str>) -> Result<(), Cow<'a, str>> {
    // An identifier of blanks is no identifier.
    let blank = KNOWN_FIELDS[i].shape != Shape::Text && blank(&s);
    if i == at::ID {
        overwrite(&mut inv.id, if blank { "" } else { &s });
        return Ok(());
    }
    let Some(slot) = inv.text_slot(i) else {
        return Err(s);
    };
    match slot {
        _ if blank => *slot = None,
        // Written over the text already there (an invoice decoded in place): its room
        // is reused.
        Some(t) => overwrite(t, &s),
        None => *slot = Some(s.into_owned()),
    }
    Ok(())
}

/// Whether `s` is only white space (`trim` leaves nothing), settled by its first byte when
/// that is plain ASCII that is not white space (an identifier's usual start).
pub(super) fn blank(s: &str) -> bool {
    match s.as_bytes().first() {
        Some(b) if b.is_ascii() && !b.is_ascii_whitespace() => false,
        _ => s.trim().is_empty(),
    }
}

/// Clears the known field `KNOWN_FIELDS[i]` when it holds text; false for any other
/// field.
fn clear_text(inv: &mut Invoice, i: usize) -> bool {
    match inv.text_slot(i) {
        Some(slot) => {
            *slot = None;
            true
        }
        None => false,
    }
}

/// Keeps the first `n` entries of `m` (the ones an invoice decoded over another has made
/// its own so far).
fn keep_first(m: &mut serde_json::Map<String, Value>, n: usize) {
    if m.len() > n {
        let mut at = 0;
        m.retain(|_, _| {
            at += 1;
            at <= n
        });
    }
}

/// `metadata` read over the one before (`None` for null), as `Value` reads it: an object
/// with the same names in the same order (a listing's usual metadata) is written over in
/// its room, anything else made anew.
struct MetadataOver<'a>(&'a mut Option<Value>);

impl<'de> serde::de::DeserializeSeed<'de> for MetadataOver<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct V<'a>(&'a mut Option<Value>);
        impl<'de> serde::de::Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<(), E> {
                *self.0 = Some(Value::String(s.to_owned()));
                Ok(())
            }
            fn visit_str<E>(self, s: &str) -> Result<(), E> {
                *self.0 = Some(Value::String(s.to_owned()));
                Ok(())
            }
            fn visit_string<E>(self, s: String) -> Result<(), E> {
                *self.0 = Some(Value::String(s));
                Ok(())
            }
            fn visit_bool<E>(self, b: bool) -> Result<(), E> {
                *self.0 = Some(Value::Bool(b));
                Ok(())
            }
            fn visit_unit<E>(self) -> Result<(), E> {
                *self.0 = None;
                Ok(())
            }
            fn visit_none<E>(self) -> Result<(), E> {
                *self.0 = None;
                Ok(())
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                serde::de::DeserializeSeed::deserialize(MetadataOver(self.0), d)
            }
            fn visit_i64<E>(self, n: i64) -> Result<(), E> {
                *self.0 = Some(Value::from(n));
                Ok(())
            }
            fn visit_u64<E>(self, n: u64) -> Result<(), E> {
                *self.0 = Some(Value::from(n));
                Ok(())
            }
            fn visit_f64<E>(self, n: f64) -> Result<(), E> {
                *self.0 = Some(Value::from(n));
                Ok(())
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
                *self.0 = Some(Value::deserialize(SeqAccessDeserializer::new(seq))?);
                Ok(())
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                let first = map.next_key::<Name>()?;
                if first.as_ref().is_some_and(|k| k.0 == NUMBER_TOKEN) {
                    // A number (serde_json's exact form), as `Raw` reads it.
                    *self.0 = Some(map.next_value::<NumberText>()?.0.into_value());
                    return Ok(());
                }
                if !matches!(self.0, Some(Value::Object(_))) {
                    *self.0 = Some(Value::Object(serde_json::Map::new()));
                }
                let Some(Value::Object(m)) = self.0 else {
                    return Ok(());
                };
                let mut kept = 0;
                let mut next = first;
                while let Some(Name(k)) = next {
                    let v: Raw<'de> = map.next_value()?;
                    kept = put_over(m, kept, k, v);
                    next = map.next_key()?;
                }
                keep_first(m, kept);
                Ok(())
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// Puts `k: v` as the next of the `kept` entries of `m` made this time: written over the
/// entry there when it has that name, else (the rest dropped) inserted as `Value` reads
/// an object — a repeated name takes the later value, in the place of the first. The
/// entries made so far.
fn put_over(
    m: &mut serde_json::Map<String, Value>,
    kept: usize,
    k: Cow<'_, str>,
    v: Raw<'_>,
) -> usize {
    match m.iter_mut().nth(kept) {
        Some((name, old)) if *name == *k => {
            write_over(old, v);
            kept + 1
        }
        _ => {
            keep_first(m, kept);
            m.insert(k.into_owned(), v.into_value());
            m.len()
        }
    }
}

/// A value written over another: text over text in the room the old text had.
fn write_over(old: &mut Value, new: Raw<'_>) {
    match (old, new) {
        (Value::String(t), Raw::Str(s)) => overwrite(t, &s),
        (old, new) => *old = new.into_value(),
    }
}

/// Text written over text, in the room the old text had.
fn overwrite(t: &mut String, s: &str) {
    t.clear();
    t.push_str(s);
}

/// Decodes an invoice's fields, one after another as read, into `inv`: an empty one, or
/// another invoice written over (what it had and this one lacks is cleared at the end).
fn decode_into<'de, A: serde::de::MapAccess<'de>>(
    inv: &mut Invoice,
    mut map: A,
) -> Result<(), A::Error> {
    inv.id.clear();
    // The other fields are written over the ones before where they come in the same
    // order (a listing's invoices have the same fields): `kept` of them are this
    // invoice's.
    let mut kept = 0;
    // Known fields whose value did not fit their shape: to `extra` at the end,
    // in the table's order (a later copy of the same field replaces them).
    let mut odd: Vec<(usize, Value)> = Vec::new();
    let mut customer_id: Option<Raw<'de>> = None;
    // One bit per known field: the table must stay within the bits (checked when built).
    const _: () = assert!(super::fields::KNOWN_FIELDS.len() <= u16::BITS as usize);
    let mut seen = 0u16;
    while let Some(field) = map.next_key()? {
        match field {
            Field::Known(at::CUSTOMER_ID) => customer_id = Some(map.next_value()?),
            Field::Known(at::METADATA) => {
                seen |= 1 << at::METADATA;
                map.next_value_seed(MetadataOver(&mut inv.metadata))?;
            }
            Field::Known(i) => {
                let raw: Raw<'de> = map.next_value()?;
                if seen & (1 << i) != 0 {
                    odd.retain(|(j, _)| *j != i);
                }
                seen |= 1 << i;
                let raw = match raw {
                    Raw::Str(s) => match put_text(inv, i, s) {
                        Ok(()) => continue,
                        Err(s) => Raw::Str(s),
                    },
                    Raw::Null if clear_text(inv, i) => continue,
                    raw => raw,
                };
                let d = convert_raw(KNOWN_FIELDS[i].shape, raw).unwrap_or_else(|v| {
                    odd.push((i, v));
                    None
                });
                inv.set_known(i, d);
            }
            Field::Other(k) => {
                let v: Raw<'de> = map.next_value()?;
                kept = put_over(&mut inv.extra, kept, k, v);
            }
        }
    }
    if inv.id.is_empty() {
        return Err(serde::de::Error::custom("an invoice has no id"));
    }
    // What this invoice did not send is absent, whatever the one before had.
    for i in 0..KNOWN_FIELDS.len() {
        if seen & (1 << i) == 0 && i != at::ID && i != at::CUSTOMER_ID {
            inv.set_known(i, None);
        }
    }
    // `customer_id` is read only when `customer` is absent; otherwise it is
    // kept as is.
    match customer_id {
        Some(Raw::Str(s)) if inv.customer.is_none() => {
            // Never `Err`: `customer_id`'s text goes to `customer`'s room.
            let _ = put_text(inv, at::CUSTOMER_ID, s);
        }
        Some(raw) if inv.customer.is_none() => {
            match convert_raw(KNOWN_FIELDS[at::CUSTOMER_ID].shape, raw) {
                Ok(d @ Some(_)) => inv.set_known(at::CUSTOMER_ID, d),
                Ok(None) => {}
                Err(v) => odd.push((at::CUSTOMER_ID, v)),
            }
        }
        Some(raw) => odd.push((at::CUSTOMER_ID, raw.into_value())),
        None => {}
    }
    keep_first(&mut inv.extra, kept);
    odd.sort_by_key(|(i, _)| *i);
    for (i, v) in odd {
        inv.extra.insert(KNOWN_FIELDS[i].name.to_string(), v);
    }
    Ok(())
}

impl<'de> serde::Deserialize<'de> for Invoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut inv = Invoice::default();
        Self::deserialize_in_place(d, &mut inv)?;
        Ok(inv)
    }

    fn deserialize_in_place<D: serde::Deserializer<'de>>(
        d: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        struct V<'a>(&'a mut Invoice);
        impl<'de> serde::de::Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an invoice (a JSON object)")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                decode_into(self.0, map)
            }
        }
        d.deserialize_map(V(place))
    }
}

#[cfg(test)]
mod tests {
    //! The decoder against the one it replaced (kept here as the reference: it read every
    //! known field as a `Value` and sorted them out at the end), on generated invoices
    //! with odd shapes, repeated fields and unknown ones.
    use super::*;
    use proptest::prelude::*;
    use serde_json::Map;

    struct Reference(Invoice);

    impl<'de> serde::Deserialize<'de> for Reference {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let m: Vec<(String, Value)> = {
                struct Pairs;
                impl<'de> serde::de::Visitor<'de> for Pairs {
                    type Value = Vec<(String, Value)>;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<Self::Value, A::Error> {
                        let mut v = Vec::new();
                        while let Some(kv) = map.next_entry()? {
                            v.push(kv);
                        }
                        Ok(v)
                    }
                }
                d.deserialize_map(Pairs)?
            };
            let mut known: [Option<Value>; KNOWN_FIELDS.len()] = Default::default();
            let mut extra = Map::new();
            for (k, v) in m {
                match known_index(&k) {
                    Some(i) => known[i] = Some(v),
                    None => {
                        extra.insert(k, v);
                    }
                }
            }
            let mut inv = Invoice {
                extra,
                ..Invoice::default()
            };
            let [id, customer, customer_id, rest @ ..] = known;
            inv.id = id
                .and_then(super::super::invoice::id_text)
                .ok_or_else(|| serde::de::Error::custom("an invoice has no id"))?;
            let put = |i: usize, v: Option<Value>, inv: &mut Invoice| -> bool {
                let f = &KNOWN_FIELDS[i];
                match v.map(|v| convert(f.shape, v)) {
                    Some(Ok(Some(d))) => {
                        inv.set_known(i, Some(d));
                        true
                    }
                    Some(Err(other)) => {
                        inv.extra.insert(f.name.to_string(), other);
                        false
                    }
                    _ => false,
                }
            };
            if !put(1, customer, &mut inv) {
                put(2, customer_id, &mut inv);
            } else if let Some(v) = customer_id {
                inv.extra.insert("customer_id".into(), v);
            }
            for (i, v) in rest.into_iter().enumerate() {
                put(i + 3, v, &mut inv);
            }
            Ok(Reference(inv))
        }
    }

    /// Decodes `text` as the one invoice of a page.
    fn decode_in_page(text: &str) -> Result<Invoice, String> {
        let page =
            super::super::Page::from_text(&format!("[{text}]")).map_err(|e| e.to_string())?;
        Ok(page.items[0].clone())
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            Just("1".to_string()),
            Just("0".to_string()),
            Just("\"TRUE\"".to_string()),
            Just("\"\"".to_string()),
            Just("\"  \"".to_string()),
            Just("[1,{\"a\":null}]".to_string()),
            Just("{\"k\":1.50}".to_string()),
            Just("{}".to_string()),
            // Objects with the same names in another order, or repeated (metadata and
            // other fields written over the ones before).
            prop::sample::select(vec![
                "{\"a\":\"x\",\"b\":\"y\"}",
                "{\"b\":\"z\",\"a\":\"w\",\"a\":\"v\"}",
                "{\"a\":\"x\"}",
                "{\"a\":1,\"b\":\"\\u00e9\"}",
            ])
            .prop_map(str::to_string),
            // Numbers at the edges of 64 bits, and ones written as serde_json does not.
            prop::sample::select(vec![
                "-0",
                "1E5",
                "2e+3",
                "18446744073709551615",
                "18446744073709551616",
                "-9223372036854775808",
                "-9223372036854775809",
            ])
            .prop_map(str::to_string),
            // What serde_json's private form of a number looks like, sent on purpose.
            prop::sample::select(vec![
                "\"1E5\"",
                "\"12.50\"",
                "\"-0\"",
                "\"abc\"",
                "\"1e+5\"",
                "5",
                "\"\"",
                "\"01\"",
            ])
            .prop_map(|v| format!("{{\"{NUMBER_TOKEN}\":{v}}}")),
            "-?[0-9]{1,25}(\\.[0-9]{0,6})?([eE][-+]?[0-9]{1,2})?",
            "\"[a-z0-9 .,\\\\\\\"é-]{0,10}\"",
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(KNOWN_FIELDS.iter().map(|f| f.name).collect::<Vec<_>>())
                .prop_map(str::to_string),
            Just("created_at".to_string()),
            "[a-z_]{1,8}",
        ]
    }

    /// serde_json still hands an exact number over as a map under [`NUMBER_TOKEN`]: if a
    /// new version named it otherwise, numbers would be read as objects.
    #[test]
    fn serde_json_still_hands_numbers_over_under_the_token() {
        assert!(matches!(
            serde_json::from_str::<Raw>("12.3400"),
            Ok(Raw::Number(s)) if s == "12.3400"
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Text taken as plainly a number is one, and serde_json keeps it as it is; every
        /// number serde_json reads is plainly one.
        #[test]
        fn plain_numbers_are_kept_as_they_are(
            text in prop_oneof![
                "-?[0-9]{1,25}(\\.[0-9]{0,6})?([eE][-+]?[0-9]{0,2})?",
                "[-+0-9.eE ]{0,8}",
            ]
        ) {
            if plain_json_number(&text) {
                let n: serde_json::Number = text.parse().unwrap();
                prop_assert_eq!(n.as_str(), text.as_str());
            }
            if let Ok(Value::Number(n)) = serde_json::from_str::<Value>(&text) {
                prop_assert!(plain_json_number(n.as_str()), "{}", n);
            }
        }
    }

    proptest! {
        /// Blank exactly when trimmed to nothing, Unicode white space included.
        #[test]
        fn blank_is_what_trim_leaves_empty(s in "[ \t\n\u{a0}\u{2003}\u{3000}a\u{e9}\u{1}]{0,6}") {
            prop_assert_eq!(blank(&s), s.trim().is_empty(), "{:?}", s);
        }
    }

    /// An invoice's text from its fields, `id` first when given.
    fn invoice_text(id: &Option<String>, fields: &[(String, String)]) -> String {
        let mut text = String::from("{");
        let id = id.clone().map(|v| ("id".to_string(), v));
        for (i, (k, v)) in id.iter().chain(fields).enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!("{}:{v}", Value::String(k.clone())));
        }
        text.push('}');
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// An invoice decoded over another (a long listing's pages read into one list)
        /// is the invoice decoded alone: nothing of the one before is left.
        #[test]
        fn decoded_over_another_it_is_itself(
            before in prop::collection::vec((key(), value()), 0..14),
            after in prop::collection::vec((key(), value()), 0..14),
            id_before in value(),
            id_after in prop_oneof![Just(None), value().prop_map(Some)],
        ) {
            let first = format!("[{}]", invoice_text(&Some(id_before), &before));
            let second = format!("[{}]", invoice_text(&id_after, &after));
            let mut items = Vec::new();
            if super::super::Page::read_into(&first, &mut items).is_ok() {
                let over = super::super::Page::read_into(&second, &mut items).map(|()| items);
                let alone = super::super::Page::from_text(&second).map(|p| p.items);
                prop_assert_eq!(over.is_ok(), alone.is_ok(), "{} then {}", first, second);
                if let (Ok(over), Ok(alone)) = (over, alone) {
                    prop_assert_eq!(&over, &alone, "{} then {}", first, second);
                    let fields = |v: &Vec<Invoice>| v.iter().map(Invoice::fields).collect::<Vec<_>>();
                    prop_assert_eq!(fields(&over), fields(&alone), "{} then {}", first, second);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn decodes_as_the_reference_does(
            fields in prop::collection::vec((key(), value()), 0..14),
            id in prop_oneof![Just(None), value().prop_map(Some)],
        ) {
            let text = invoice_text(&id, &fields);
            // In a page as alone.
            let ours = decode_in_page(&text);
            let alone = serde_json::from_str::<Invoice>(&text).map_err(|e| e.to_string());
            prop_assert_eq!(ours.is_ok(), alone.is_ok(), "{}", text);
            if let Ok(first) = &ours {
                prop_assert_eq!(Ok(first), alone.as_ref(), "{}", text);
            }
            let reference = serde_json::from_str::<Reference>(&text)
                .map(|r| r.0)
                .map_err(|e| e.to_string());
            prop_assert!(reference.is_err() || text.contains("\"id\""), "{}", text);
            match (ours, reference) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(&a, &b, "{}", text);
                    // Same fields, in the same order.
                    prop_assert_eq!(a.fields(), b.fields(), "{}", text);
                }
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "{}: {:?} against {:?}", text, a, b),
            }
        }
    }
}
