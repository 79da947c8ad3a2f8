//! Text from the service made safe to show: control characters, DEL, C1 controls and
//! bidirectional overrides are written as visible escapes, so a hostile string cannot move
//! a terminal's cursor, set its title, forge a line, or reorder a row on screen.

use std::borrow::Cow;
use std::fmt::Write;

/// True for the characters that are escaped: C0 controls (tab and newline included: in
/// one field they would break the layout or forge a line), DEL, C1 controls, and the
/// bidirectional marks and overrides.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}' | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// `s` as one line of at most `max` characters for what a person reads outside our own
/// screens (an e-mail's subject, a customer's name in its text): every unsafe character
/// (line breaks, ESC, BEL, bidirectional overrides) becomes a space, runs of white space
/// one space.
pub fn one_line(s: &str, max: usize) -> String {
    s.chars()
        .map(|c| if is_unsafe(c) { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(max)
        .collect()
}

/// `s` as lines a person reads (an e-mail's text): line breaks kept (a `\r\n` read as
/// one), a tab as spaces, every other unsafe character left out.
pub fn plain_lines(s: &str) -> String {
    s.replace("\r\n", "\n")
        .chars()
        .filter_map(|c| match c {
            '\n' => Some('\n'),
            '\t' => Some(' '),
            c if is_unsafe(c) => None,
            c => Some(c),
        })
        .collect()
}

/// `s` with every unsafe character written as an escape (`\n`, `\x1b`, `\u{202e}`);
/// borrowed when there is none.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Serialized JSON made safe for a terminal without changing its meaning: the C1 controls
/// and bidirectional characters (which JSON encoders leave raw) become `\uXXXX` escapes.
/// They can only occur inside strings, where the escape stands for the same character.
pub fn escape_json_for_terminal(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r' | ' ') {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Neutralises a text cell that a spreadsheet would run as a formula (CWE-1236): every
/// file we write for a spreadsheet (exports, reports, the journal's CSV) goes through it.
pub fn guard_text(s: &str) -> std::borrow::Cow<'_, str> {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => std::borrow::Cow::Owned(format!("'{s}")),
        _ => std::borrow::Cow::Borrowed(s),
    }
}

/// `Display` for an error whose words for people are in the Fluent files (`i18n`): its
/// `Debug`, controls escaped, for engineers (a test's failure, a panic). One text per
/// error: what a clerk reads is `i18n`'s, in the clerk's language.
#[macro_export]
macro_rules! engineers_text {
    ($($t:ty),+ $(,)?) => {
        $(impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::text::escape_controls(&format!("{self:?}")))
            }
        })+
    };
}

/// The name of an enum's variant: its `Debug` text up to its first field (for a log,
/// which must not repeat what the fields may hold: what a service or a file said).
pub fn variant_name(v: &impl std::fmt::Debug) -> String {
    let text = format!("{v:?}");
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_variant_is_named_without_its_fields() {
        #[derive(Debug)]
        #[allow(dead_code)]
        enum Kind {
            Plain,
            Said(String),
            Fields { message: String },
        }
        assert_eq!(super::variant_name(&Kind::Plain), "Plain");
        assert_eq!(super::variant_name(&Kind::Said("secret".into())), "Said");
        assert_eq!(
            super::variant_name(&Kind::Fields {
                message: "secret".into()
            }),
            "Fields"
        );
    }

    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_obey() {
        let hostile = "ACME\u{1b}]0;PWNED\u{7}\u{1b}[2J\r\nFAKE LINE\u{9b}31m\u{202e}cba";
        let safe = escape_controls(hostile);
        assert_eq!(
            safe,
            "ACME\\x1b]0;PWNED\\x07\\x1b[2J\\r\\nFAKE LINE\\x9b31m\\u{202e}cba"
        );
        assert!(!safe.chars().any(is_unsafe));
        assert!(matches!(escape_controls("Ñuñoa café"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_stays_the_same_value() {
        let v = serde_json::json!({"c": "a\u{1b}[2J\u{9b}\u{202e}b\nc"});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let safe = escape_json_for_terminal(&text);
        assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }
}
