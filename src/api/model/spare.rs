//! A page of invoices already used, given back for the next page decoded on the same
//! thread. A long listing streamed to a file (the CLI's export) decodes a page, writes it
//! and drops it, page after page: the next page is decoded into the same list, each
//! invoice into one of the used ones and each text into the room the same field's text
//! had, so most fields of most invoices need no allocation, no free and no move. Nothing
//! else changes: an invoice decoded into a used one is equal to one decoded afresh (the
//! decoder overwrites or clears every field), and a thread that never gives a page back
//! decodes exactly as before.

use super::Invoice;
use super::fields::{KNOWN_FIELDS, at};
use serde_json::Value;
use std::cell::RefCell;

/// At most this many bytes are kept, in the given-back page and loose strings together,
/// each string with room for at most [`MAX_ROOM`] bytes.
const MAX_HELD: usize = 4 * 1024 * 1024;
const MAX_ROOM: usize = 256;
/// A given-back invoice keeps its other fields only when it had at most this many, each
/// text (or null, or a boolean): they are matched one by one with the next invoice's.
const MAX_MAP_ENTRIES: usize = 32;

#[derive(Default)]
struct Spare {
    /// The page given back, and the room it holds.
    page: Vec<Invoice>,
    page_room: usize,
    /// Strings from fields a decoded invoice had no value for (null or absent).
    strings: Vec<String>,
    /// The room held by both.
    held: usize,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::default();
}

/// A list to decode a page into: the page given back, whose invoices the decoder must
/// overwrite or clear field by field, or an empty list.
pub(super) fn page() -> Vec<Invoice> {
    SPARE.with_borrow_mut(|spare| {
        spare.held -= std::mem::take(&mut spare.page_room);
        std::mem::take(&mut spare.page)
    })
}

/// `s` as a `String`: in spare room when there is some, newly allocated otherwise.
pub(super) fn text(s: &str) -> String {
    let spare = SPARE.with_borrow_mut(|spare| {
        let t = spare.strings.pop()?;
        spare.held -= t.capacity();
        Some(t)
    });
    match spare {
        Some(mut t) => {
            t.clear();
            t.push_str(s);
            t
        }
        None => s.to_owned(),
    }
}

/// Keeps the string of a field that has no value any more, for [`text`].
pub(super) fn keep(s: String) {
    let room = s.capacity();
    if room > 0 && room <= MAX_ROOM {
        SPARE.with_borrow_mut(|spare| {
            if spare.held + room <= MAX_HELD {
                spare.held += room;
                spare.strings.push(s);
            }
        });
    }
}

/// The room of a string with this capacity, or `None` when it is too long to keep.
fn room(capacity: usize) -> Option<usize> {
    (capacity <= MAX_ROOM).then_some(capacity)
}

impl Invoice {
    /// Gives a page of invoices to the next page decoded on this thread. For a caller
    /// that is done with many pages, one after another (see the module's documentation);
    /// dropping the page is always correct too.
    pub fn recycle_page(mut page: Vec<Invoice>) {
        let mut held = page.capacity() * std::mem::size_of::<Invoice>();
        let mut kept = 0;
        for inv in &mut page {
            let room = inv.keepable_room();
            if held + room > MAX_HELD {
                break;
            }
            held += room;
            kept += 1;
        }
        page.truncate(kept);
        SPARE.with_borrow_mut(|spare| {
            if spare.page.is_empty() && spare.held + held <= MAX_HELD {
                spare.held += held;
                spare.page_room = held;
                spare.page = page;
            }
        });
    }

    /// Frees what the decoder never writes into (a new value replaces it) and text too
    /// long to keep; returns the room the rest holds.
    fn keepable_room(&mut self) -> usize {
        self.metadata = None;
        self.amount_unreadable = None;
        if room(self.id.capacity()).is_none() {
            self.id = String::new();
        }
        let mut held = self.id.capacity();
        // (`customer_id` is read into `customer`: not a slot of its own.)
        for i in (0..KNOWN_FIELDS.len()).filter(|&i| i != at::CUSTOMER_ID) {
            if let Some(slot) = self.text_slot(i)
                && let Some(s) = slot
            {
                match room(s.capacity()) {
                    Some(r) => held += r,
                    None => *slot = None,
                }
            }
        }
        let extra_room = (self.extra.len() <= MAX_MAP_ENTRIES)
            .then(|| {
                self.extra.iter().try_fold(0, |sum, (k, v)| {
                    let value = match v {
                        Value::String(s) => room(s.capacity())?,
                        Value::Null | Value::Bool(_) => 0,
                        _ => return None,
                    };
                    Some(sum + room(k.capacity())? + value)
                })
            })
            .flatten();
        match extra_room {
            Some(r) => held + r,
            None => {
                self.extra = serde_json::Map::new();
                held
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held() -> (usize, usize, usize) {
        SPARE.with_borrow(|s| (s.page.len(), s.strings.len(), s.held))
    }

    fn invoice_of(id: String, extra: usize) -> Invoice {
        let mut inv = Invoice::empty();
        inv.id = id;
        for i in 0..extra {
            inv.extra
                .insert(format!("f{i}"), Value::String("x".repeat(8)));
        }
        inv
    }

    /// Each test runs on a thread of its own: nothing is kept when it starts.
    #[test]
    fn spare_invoices_stay_bounded() {
        let mut long = invoice_of("x".repeat(MAX_ROOM + 1), 0);
        long.customer = Some("c".repeat(MAX_ROOM + 1));
        long.due_date = Some("2025-01-31".into());
        let mut nested = invoice_of("in_1".into(), 1);
        nested
            .extra
            .insert("n".into(), serde_json::json!({"a": [1]}));
        Invoice::recycle_page(vec![
            long,
            invoice_of("in_1".into(), MAX_MAP_ENTRIES + 1),
            nested,
        ]);
        let kept = page();
        assert_eq!(kept.len(), 3);
        assert!(
            kept[0].id.capacity() == 0 && kept[0].customer.is_none(),
            "long text is not kept"
        );
        assert_eq!(kept[0].due_date.as_deref(), Some("2025-01-31"));
        assert!(kept[1].extra.is_empty(), "many other fields are not kept");
        assert!(kept[2].extra.is_empty(), "nested values are not kept");
        assert_eq!(held(), (0, 0, 0), "the page is taken back with its room");
        // A page beyond the room: its first invoices are kept.
        let many = MAX_HELD / std::mem::size_of::<Invoice>();
        let count = many * 3 / 4;
        Invoice::recycle_page(
            (0..count)
                .map(|i| invoice_of(format!("{i:0>250}"), 0))
                .collect(),
        );
        let (invoices, _, room) = held();
        assert!(invoices > 0 && invoices < count, "{invoices} of {count}");
        assert!(room <= MAX_HELD);
        // One page at a time: another is dropped while one is kept.
        Invoice::recycle_page(vec![invoice_of("in_x".into(), 0)]);
        assert_eq!(held().0, invoices);
        page();
        assert_eq!(held(), (0, 0, 0));
        // A page too large for the room to hold even its list: not kept.
        Invoice::recycle_page(Vec::with_capacity(many + 1));
        assert_eq!(held(), (0, 0, 0));
        // Loose strings: bounded by the same room.
        for _ in 0..(MAX_HELD / MAX_ROOM + 10) {
            keep(String::with_capacity(MAX_ROOM));
        }
        keep(String::with_capacity(MAX_ROOM + 1));
        let (_, strings, room) = held();
        assert_eq!(strings, MAX_HELD / MAX_ROOM);
        assert_eq!(room, MAX_HELD);
        // Taken back: the text is the one asked for, whatever was there before.
        assert_eq!(text("in_é"), "in_é");
        assert_eq!(held().2, MAX_HELD - MAX_ROOM);
    }
}
