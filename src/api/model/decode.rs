//! Decoding an invoice straight from the JSON stream (no tree), along the table of known
//! fields: each known field is read as a small `Value` first, so that any shape is
//! accepted, then converted by its [`Shape`]; a shape that does not fit stays visible in
//! `extra` instead of failing the invoice. Hand-written visitors, because decoding into
//! serde's derived structs either fails whole invoices on one odd field or needs a JSON
//! tree; `cargo bench --bench perf -- decode` measures this path at 0.63× the speed of
//! serde into plain structs (a tree costs about 0.26×).

use super::fields::{Decoded, KNOWN_FIELDS, Shape, known_index};
use super::invoice::{Invoice, compact, id_text};
use crate::api::money;
use serde_json::{Map, Value};

/// A field name: the index of a known field, or another name.
enum Field {
    Known(usize),
    Other(String),
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: serde::de::Error>(self, k: &str) -> Result<Field, E> {
                Ok(known_index(k).map_or_else(|| Field::Other(k.to_string()), Field::Known))
            }
            fn visit_string<E: serde::de::Error>(self, k: String) -> Result<Field, E> {
                Ok(match known_index(&k) {
                    Some(i) => Field::Known(i),
                    None => Field::Other(k),
                })
            }
        }
        d.deserialize_identifier(V)
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

#[derive(Default)]
struct InvoiceBuilder {
    known: [Option<Value>; KNOWN_FIELDS.len()],
    extra: Map<String, Value>,
}

impl InvoiceBuilder {
    fn finish(self) -> Result<Invoice, &'static str> {
        let mut inv = Invoice::empty();
        inv.extra = self.extra;
        let [id, customer, customer_id, rest @ ..] = self.known;
        inv.id = id.and_then(id_text).ok_or("an invoice has no id")?;
        let put = |i: usize, v: Option<Value>, inv: &mut Invoice| -> bool {
            let f = &KNOWN_FIELDS[i];
            match v.map(|v| convert(f.shape, v)) {
                Some(Ok(Some(d))) => {
                    inv.set_known(f.name, d);
                    true
                }
                Some(Err(other)) => {
                    inv.extra.insert(f.name.to_string(), other);
                    false
                }
                _ => false,
            }
        };
        // `customer_id` is read only when `customer` is absent; otherwise it is kept as is.
        if !put(1, customer, &mut inv) {
            put(2, customer_id, &mut inv);
        } else if let Some(v) = customer_id {
            inv.extra.insert("customer_id".into(), v);
        }
        for (i, v) in rest.into_iter().enumerate() {
            put(i + 3, v, &mut inv);
        }
        Ok(inv)
    }
}

impl<'de> serde::Deserialize<'de> for Invoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Invoice;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an invoice (a JSON object)")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Invoice, A::Error> {
                let mut b = InvoiceBuilder::default();
                while let Some(field) = map.next_key::<Field>()? {
                    let v: Value = map.next_value()?;
                    match field {
                        Field::Known(i) => b.known[i] = Some(v),
                        Field::Other(k) => {
                            b.extra.insert(k, v);
                        }
                    }
                }
                b.finish().map_err(serde::de::Error::custom)
            }
        }
        d.deserialize_map(V)
    }
}
