//! Which trigrams of a searched text the full-text table is asked for. A row that holds
//! the text holds each of its trigrams, so any of them finds every such row, and the
//! text itself then sorts the rows out (`folded_contains`). A trigram that most rows
//! hold (a year, "in_", a prefix every reference shares) makes the table read its whole
//! list of rows: at a million invoices "202" alone was most of a search (12 ms of 15,
//! #71). So each trigram is first counted, up to [`COMMON`], and the common ones are left
//! out while a rarer one is there.

/// How many of a trigram's rows are counted before it is called common: counting more
/// costs more than the rows it would save (a million invoices: "202" in 594,000 rows,
/// "6-0" in 17,000, "004" in 2,600 for "2026-004").
pub(super) const COMMON: i64 = 20_000;

/// The text's trigrams, each as the full-text table's string (quoted, its quotes
/// doubled: what was typed is never read as the query language): every third from its
/// start and its last, so that they cover it. `None` under three characters.
pub(super) fn trigrams(text: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let last = chars.len().checked_sub(3)?;
    let mut grams: Vec<String> = (0..=last)
        .filter(|&i| i % 3 == 0 || i == last)
        .map(|i| chars[i..i + 3].iter().collect::<String>())
        .map(|g| format!("\"{}\"", g.replace('"', "\"\"")))
        .collect();
    grams.sort();
    grams.dedup();
    Some(grams)
}

/// The trigrams to ask for, given each one's rows counted up to [`COMMON`]: those under
/// it; every one when all are common (none is better than another then).
pub(super) fn chosen(counted: &[(i64, String)]) -> Vec<&str> {
    let rare: Vec<&str> = counted
        .iter()
        .filter(|(n, _)| *n < COMMON)
        .map(|(_, g)| g.as_str())
        .collect();
    if rare.is_empty() {
        counted.iter().map(|(_, g)| g.as_str()).collect()
    } else {
        rare
    }
}

/// The full-text query for `grams`: all of them.
pub(super) fn query(grams: &[&str]) -> String {
    grams.join(" AND ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_texts_trigrams_cover_it_and_quote_themselves() {
        assert_eq!(trigrams("ab"), None);
        assert_eq!(
            trigrams("2026-004").unwrap(),
            ["\"004\"", "\"202\"", "\"6-0\""]
        );
        assert_eq!(trigrams("a\"bc").unwrap(), ["\"\"\"bc\"", "\"a\"\"b\""]);
    }

    /// The common trigrams are left out while a rarer one is there; all are asked for
    /// when each is common; one that no row holds is kept (the search then finds none).
    #[test]
    fn common_trigrams_are_left_out_while_a_rarer_one_is_there() {
        let c = |v: &[(i64, &str)]| -> Vec<(i64, String)> {
            v.iter().map(|(n, g)| (*n, (*g).to_string())).collect()
        };
        let some = c(&[(2_632, "004"), (COMMON, "202"), (16_996, "6-0")]);
        assert_eq!(chosen(&some), ["004", "6-0"]);
        assert_eq!(query(&chosen(&some)), "004 AND 6-0");
        let all_common = c(&[(COMMON, "202"), (COMMON, "026")]);
        assert_eq!(chosen(&all_common), ["202", "026"]);
        let none = c(&[(0, "zzz"), (COMMON, "202")]);
        assert_eq!(chosen(&none), ["zzz"]);
    }
}
