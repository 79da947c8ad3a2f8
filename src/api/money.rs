//! Exact money: currencies with their minor units, es-CL formatting, parsing what a clerk
//! types, and exact conversion to and from JSON numbers. Never f64.

use rust_decimal::Decimal;
use serde_json::{Number, Value};
use std::fmt;
use std::str::FromStr;

/// An ISO 4217 currency (from the maintained table of the `iso_currency` crate: any code
/// in it is read, shown and exported with its minor units, without a new release).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Currency(iso_currency::Currency);

impl PartialOrd for Currency {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Currency {
    /// By code, so that lists and totals are in a stable, readable order.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.code().cmp(other.code())
    }
}

impl Currency {
    /// Chilean peso: whole pesos only.
    pub const CLP: Currency = Currency(iso_currency::Currency::CLP);
    /// Unidad de Fomento: four decimals.
    pub const CLF: Currency = Currency(iso_currency::Currency::CLF);
    /// US dollar.
    pub const USD: Currency = Currency(iso_currency::Currency::USD);

    /// The currencies offered when a profile does not say: what the service accepts today.
    pub const DEFAULT_OFFERED: [Currency; 2] = [Currency::CLP, Currency::CLF];

    /// The ISO 4217 code, as sent in `currency_code`.
    pub fn code(self) -> &'static str {
        self.0.code()
    }

    /// ISO 4217 minor units: how many decimals an amount may have (0 for the codes the
    /// table gives none, such as gold).
    pub fn minor_units(self) -> u32 {
        self.0.exponent().map_or(0, u32::from)
    }

    /// Reads an ISO 4217 code (`CLP`, `usd`); surrounding spaces and case are forgiven.
    /// `None` for anything that is not in the table.
    pub fn from_code(code: &str) -> Option<Currency> {
        // Every code of the table is three ASCII letters; read without an allocation
        // (the export asks for every row).
        let &[a, b, c] = code.trim().as_bytes() else {
            return None;
        };
        let upper = [a, b, c].map(|x| x.to_ascii_uppercase());
        // The service's two currencies first: the table is a long chain of comparisons.
        match &upper {
            b"CLP" => Some(Currency(iso_currency::Currency::CLP)),
            b"CLF" => Some(Currency(iso_currency::Currency::CLF)),
            _ => iso_currency::Currency::from_code(std::str::from_utf8(&upper).ok()?).map(Currency),
        }
    }

    /// Every currency of the ISO 4217 table.
    pub fn all() -> impl Iterator<Item = Currency> {
        use iso_currency::IntoEnumIterator;
        iso_currency::Currency::iter().map(Currency)
    }

    /// How amounts in it are written in Chile: `$` for pesos, `UF` for the UF, `US$` for
    /// dollars; any other by its code (never a bare `$`, which is the peso).
    pub fn prefix(self) -> &'static str {
        match self.code() {
            "CLP" => "$",
            "CLF" => "UF ",
            "USD" => "US$ ",
            other => other,
        }
    }

    /// Parses a list like `CLP, CLF,USD`; the first code that is not ISO 4217 is the
    /// error. Duplicates are dropped.
    pub fn parse_list(text: &str) -> Result<Vec<Currency>, String> {
        let mut out: Vec<Currency> = Vec::new();
        for part in text.split([',', ' ', ';']).filter(|p| !p.trim().is_empty()) {
            let c = Currency::from_code(part).ok_or_else(|| part.trim().to_string())?;
            if !out.contains(&c) {
                out.push(c);
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Why typed amount text was refused. The message is meant for the clerk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AmountError {
    /// Nothing typed.
    Empty,
    /// Characters that are not part of a number.
    NotANumber(String),
    /// Separators that could mean two different amounts.
    Ambiguous {
        /// What was typed.
        text: String,
        /// One reading.
        a: String,
        /// The other reading.
        b: String,
    },
    /// Thousands groups that are not three digits.
    BadGrouping(String),
    /// More decimals than the currency has.
    TooPrecise {
        /// What was typed.
        text: String,
        /// The currency.
        currency: Currency,
        /// Allowed decimals.
        max: u32,
        /// Decimals typed.
        got: u32,
    },
    /// Zero or negative.
    NotPositive,
    /// Too large to be an invoice amount.
    TooLarge,
}

crate::engineers_text!(AmountError);

impl std::error::Error for AmountError {}

/// Most decimals accepted when the currency is not known yet (the account's currency):
/// the largest of the known currencies; the service has the last word.
const MAX_DECIMALS_UNKNOWN: u32 = 4;

/// An amount from a spreadsheet's number cell (`sheet::excel_number`'s text: plain
/// digits, a dot for decimals): a number, never read the Chilean way (`23.193` in a
/// number cell is 23.193, not 23193), checked against the currency's decimals.
pub fn parse_number_cell(text: &str, currency: Option<Currency>) -> Result<Decimal, AmountError> {
    let original = text.trim();
    let d = Decimal::from_str_exact(original)
        .map_err(|_| AmountError::NotANumber(original.to_string()))?
        .normalize();
    let max = currency.map_or(MAX_DECIMALS_UNKNOWN, Currency::minor_units);
    if d.scale() > max {
        return Err(AmountError::TooPrecise {
            text: original.to_string(),
            currency: currency.unwrap_or(Currency::CLF),
            max,
            got: d.scale(),
        });
    }
    Ok(d)
}

/// Parses an amount as a Chilean clerk types it: `1.234.567`, `1234567`, `12,3456`,
/// `UF 1.234,5678`, `$ 15.000`. Also accepts unambiguous English style (`1,234.56`).
/// A lone dot followed by exactly three digits is thousands for CLP, and refused as
/// ambiguous where decimals are possible. `currency` is `None` for "account currency".
pub fn parse_amount_input(text: &str, currency: Option<Currency>) -> Result<Decimal, AmountError> {
    let original = text.trim();
    let mut s: String = original.chars().filter(|c| !c.is_whitespace()).collect();
    // The currency's own marks, as `format_amount` writes them (`US$`, `EUR`).
    if let Some(c) = currency {
        let upper = s.to_ascii_uppercase();
        for mark in [c.prefix().trim(), c.code()] {
            if upper.starts_with(mark) {
                s = s[mark.len()..].to_string();
                break;
            } else if upper.ends_with(mark) {
                s = s[..s.len() - mark.len()].to_string();
                break;
            }
        }
    }
    for prefix in ["US$", "us$", "UF", "uf", "CLP", "clp", "CLF", "clf", "$"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
            break;
        }
    }
    for suffix in ["CLP", "clp", "CLF", "clf", "UF", "uf"] {
        if let Some(rest) = s.strip_suffix(suffix) {
            s = rest.to_string();
            break;
        }
    }
    if s.is_empty() {
        return Err(AmountError::Empty);
    }
    let negative = s.starts_with('-');
    let body = s.trim_start_matches(['-', '+']);
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return Err(AmountError::NotANumber(original.to_string()));
    }
    let dots = body.matches('.').count();
    let commas = body.matches(',').count();
    let (int_part, frac_part): (String, String) = match (dots, commas) {
        (0, 0) => (body.to_string(), String::new()),
        (_, 0) if dots > 1 => (ungroup(body, '.', original)?, String::new()),
        (0, _) if commas > 1 => (ungroup(body, ',', original)?, String::new()),
        (1, 0) => {
            let (i, f) = body.split_once('.').unwrap_or((body, ""));
            if f.len() == 3 && !i.is_empty() {
                // "1.234": thousands in Chile, a decimal point elsewhere.
                if currency.is_some_and(|c| c.minor_units() == 0) {
                    (format!("{i}{f}"), String::new())
                } else {
                    return Err(AmountError::Ambiguous {
                        text: original.to_string(),
                        a: format!("{i}{f}"),
                        b: format!("{i},{f}"),
                    });
                }
            } else {
                (i.to_string(), f.to_string())
            }
        }
        (0, 1) => {
            let (i, f) = body.split_once(',').unwrap_or((body, ""));
            (i.to_string(), f.to_string())
        }
        _ => {
            // Both separators: the last one is the decimal separator, used once.
            let last_dot = body.rfind('.').unwrap_or(0);
            let last_comma = body.rfind(',').unwrap_or(0);
            let (group, dec) = if last_comma > last_dot {
                ('.', ',')
            } else {
                (',', '.')
            };
            if body.matches(dec).count() != 1 {
                return Err(AmountError::NotANumber(original.to_string()));
            }
            let (i, f) = body.split_once(dec).unwrap_or((body, ""));
            if f.contains(group) {
                return Err(AmountError::BadGrouping(original.to_string()));
            }
            (ungroup(i, group, original)?, f.to_string())
        }
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(AmountError::NotANumber(original.to_string()));
    }
    let frac_trimmed = frac_part.trim_end_matches('0');
    let max = currency.map_or(MAX_DECIMALS_UNKNOWN, Currency::minor_units);
    if frac_trimmed.len() as u32 > max {
        return match currency {
            Some(c) => Err(AmountError::TooPrecise {
                text: original.to_string(),
                currency: c,
                max,
                got: frac_trimmed.len() as u32,
            }),
            None => Err(AmountError::TooPrecise {
                text: original.to_string(),
                currency: Currency::CLF,
                max,
                got: frac_trimmed.len() as u32,
            }),
        };
    }
    let int_part = if int_part.is_empty() {
        "0".to_string()
    } else {
        int_part
    };
    let literal = if frac_trimmed.is_empty() {
        int_part
    } else {
        format!("{int_part}.{frac_trimmed}")
    };
    let value = Decimal::from_str(&literal).map_err(|_| AmountError::TooLarge)?;
    if negative || value.is_zero() {
        return Err(AmountError::NotPositive);
    }
    // Far beyond any real invoice; keeps us clear of Decimal's 28-digit edge.
    if value > Decimal::from(1_000_000_000_000_000i64) {
        return Err(AmountError::TooLarge);
    }
    Ok(value.normalize())
}

/// Removes thousands separators after checking every group after the first has 3 digits.
fn ungroup(s: &str, sep: char, original: &str) -> Result<String, AmountError> {
    let mut parts = s.split(sep);
    let first = parts.next().unwrap_or("");
    if first.is_empty() || first.len() > 3 {
        return Err(AmountError::BadGrouping(original.to_string()));
    }
    let mut out = first.to_string();
    for p in parts {
        if p.len() != 3 {
            return Err(AmountError::BadGrouping(original.to_string()));
        }
        out.push_str(p);
    }
    Ok(out)
}

/// Formats an amount the Chilean way, es-CL grouping for every currency: `$1.234.567`
/// for CLP, `UF 1.234,5678` for CLF, `US$ 1.234,56` for USD, `EUR 1.234,56` for others;
/// `1.234,5 XYZ` for a code that is not ISO 4217. Never rounds: extra decimals are shown.
pub fn format_amount(amount: Decimal, currency: Option<&str>) -> String {
    let known = currency.and_then(Currency::from_code);
    let min_decimals = known.map_or(0, Currency::minor_units);
    let number = format_es_cl(amount.abs(), min_decimals);
    let sign = if amount.is_sign_negative() && !amount.is_zero() {
        "-"
    } else {
        ""
    };
    match (known, currency) {
        (Some(c), _) if c.prefix().ends_with(' ') || c.prefix() == "$" => {
            format!("{sign}{}{number}", c.prefix())
        }
        (Some(c), _) => format!("{sign}{} {number}", c.prefix()),
        (None, Some(code)) if !code.trim().is_empty() => format!("{sign}{number} {}", code.trim()),
        _ => format!("{sign}{number}"),
    }
}

/// Digits with "." between thousands and "," before at least `min_decimals` decimals.
pub fn format_es_cl(amount: Decimal, min_decimals: u32) -> String {
    let normalized = amount.normalize();
    let scale = normalized.scale().max(min_decimals);
    let mut fixed = normalized;
    fixed.rescale(scale);
    let text = fixed.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(ch);
    }
    if frac.is_empty() {
        grouped
    } else {
        format!("{grouped},{frac}")
    }
}

/// The exact JSON number for an amount (`12.3456` stays `12.3456`).
pub fn to_json_number(amount: Decimal) -> Number {
    // serde_json's arbitrary_precision keeps these digits as they are.
    Number::from_str(&amount.normalize().to_string()).expect("a decimal's text is a JSON number")
}

/// Appends `d` as its `Display` writes it (every digit of its scale, no grouping), with
/// `point` for the decimal point. Without `fmt`: the CSV export writes an amount in every
/// row, and `Display` through a formatter was about a tenth of its CPU.
pub fn push_plain(d: Decimal, point: char, out: &mut String) {
    // A mantissa has at most 29 digits; the scale at most 28 (zeros before the digits).
    let mut digits = [b'0'; 40];
    let mut at = digits.len();
    let mantissa = d.mantissa().unsigned_abs();
    // Most amounts fit a u64, whose division by ten is a multiplication.
    match u64::try_from(mantissa) {
        Ok(mut n) => {
            while n != 0 {
                at -= 1;
                digits[at] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        }
        Err(_) => {
            let mut n = mantissa;
            while n != 0 {
                at -= 1;
                digits[at] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        }
    }
    let scale = d.scale() as usize;
    // At least `scale` digits (the array is zeros already), and "0" for no whole part.
    let start = at.min(digits.len() - scale);
    let point_at = digits.len() - scale;
    if d.is_sign_negative() {
        out.push('-');
    }
    // Only ASCII digits are in the array.
    fn ascii(b: &[u8]) -> &str {
        std::str::from_utf8(b).unwrap_or_default()
    }
    if start == point_at {
        out.push('0');
    } else {
        out.push_str(ascii(&digits[start..point_at]));
    }
    if scale > 0 {
        out.push(point);
        out.push_str(ascii(&digits[point_at..]));
    }
}

/// Reads an amount from JSON, exactly: a number (`1000`, `12.3456`, `1e3`) or a numeric
/// string (`"1000"`). `None` for anything else.
pub fn from_json(value: &Value) -> Option<Decimal> {
    match value {
        // The digits as the service sent them (arbitrary_precision): no copy.
        Value::Number(n) => parse_plain_decimal(n.as_str()),
        Value::String(s) => parse_plain_decimal(s.trim()),
        _ => None,
    }
}

/// Parses `123`, `-1.50`, `1e3`, `1.5E-2` exactly.
pub fn parse_plain_decimal(s: &str) -> Option<Decimal> {
    if s.is_empty() || s.len() > 64 {
        return None;
    }
    if s.contains(['e', 'E']) {
        Decimal::from_scientific(s).ok()
    } else {
        Decimal::from_str_exact(s).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    /// A code of the table in any case, or any short text, with spaces around.
    fn any_code() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let codes: Vec<String> = Currency::all().map(|c| c.code().to_string()).collect();
        let real = (proptest::sample::select(codes), any::<[bool; 3]>()).prop_map(|(c, lower)| {
            c.chars()
                .zip(lower)
                .map(|(ch, l)| if l { ch.to_ascii_lowercase() } else { ch })
                .collect::<String>()
        });
        let text = prop_oneof![real, "[a-zA-Z]{0,4}", ".{0,4}"];
        ("[ \\t]{0,2}", text, "[ \\t]{0,2}").prop_map(|(a, t, b)| format!("{a}{t}{b}"))
    }

    proptest::proptest! {
        /// Any decimal (zero and negative zero, every scale, the largest mantissas) is
        /// written as its `Display` writes it, with the point asked for.
        #[test]
        fn plain_text_is_what_display_writes(
            lo in proptest::prelude::any::<u32>(),
            mid in proptest::prelude::any::<u32>(),
            hi in proptest::prelude::any::<u32>(),
            small in proptest::prelude::any::<bool>(),
            negative in proptest::prelude::any::<bool>(),
            scale in 0u32..=28,
        ) {
            let (mid, hi) = if small { (mid % 4, 0) } else { (mid, hi) };
            let mut zero = Decimal::from_parts(0, 0, 0, false, scale);
            zero.set_sign_negative(negative);
            for d in [Decimal::from_parts(lo, mid, hi, negative, scale), zero] {
                let mut ours = String::from("x");
                push_plain(d, '.', &mut ours);
                proptest::prop_assert_eq!(&ours, &format!("x{d}"));
                let mut comma = String::new();
                push_plain(d, ',', &mut comma);
                proptest::prop_assert_eq!(comma, d.to_string().replace('.', ","));
            }
        }

        /// Read without an allocation, a code is read as the table reads its upper case.
        #[test]
        fn codes_are_read_as_their_upper_case(code in any_code()) {
            let by_table = iso_currency::Currency::from_code(&code.trim().to_ascii_uppercase());
            proptest::prop_assert_eq!(Currency::from_code(&code).map(|c| c.0), by_table);
        }
    }

    #[test]
    fn codes_forgive_case_and_spaces_only() {
        assert_eq!(
            Currency::from_code(" usd "),
            Some(Currency(iso_currency::Currency::USD))
        );
        assert_eq!(Currency::from_code("Clf"), Some(Currency::CLF));
        for bad in ["", "US", "USDX", "ÚSD", "U SD", "XYZ"] {
            assert_eq!(Currency::from_code(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_chilean_input() {
        let clp = Some(Currency::CLP);
        let clf = Some(Currency::CLF);
        assert_eq!(parse_amount_input("1.234.567", clp), Ok(d("1234567")));
        assert_eq!(parse_amount_input("$ 15.000", clp), Ok(d("15000")));
        assert_eq!(parse_amount_input("1.234", clp), Ok(d("1234")));
        assert_eq!(parse_amount_input("12,3456", clf), Ok(d("12.3456")));
        assert_eq!(parse_amount_input("UF 1.234,5678", clf), Ok(d("1234.5678")));
        assert_eq!(parse_amount_input("1,234.5", clf), Ok(d("1234.5")));
        assert_eq!(parse_amount_input("12.5", clf), Ok(d("12.5")));
        assert_eq!(parse_amount_input("1000,00", clp), Ok(d("1000")));
    }

    #[test]
    fn refuses_bad_input() {
        let clp = Some(Currency::CLP);
        let clf = Some(Currency::CLF);
        assert_eq!(parse_amount_input("  ", clp), Err(AmountError::Empty));
        assert!(matches!(
            parse_amount_input("1.234", clf),
            Err(AmountError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse_amount_input("1.234", None),
            Err(AmountError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse_amount_input("10,5", clp),
            Err(AmountError::TooPrecise { .. })
        ));
        assert!(matches!(
            parse_amount_input("1,23456", clf),
            Err(AmountError::TooPrecise { .. })
        ));
        assert!(matches!(
            parse_amount_input("12.34.5", clp),
            Err(AmountError::BadGrouping(_))
        ));
        assert!(matches!(
            parse_amount_input("abc", clp),
            Err(AmountError::NotANumber(_))
        ));
        assert_eq!(parse_amount_input("-5", clp), Err(AmountError::NotPositive));
        assert_eq!(parse_amount_input("0", clp), Err(AmountError::NotPositive));
        assert!(matches!(
            parse_amount_input("1.234,5.6", clf),
            Err(AmountError::NotANumber(_))
        ));
    }

    #[test]
    fn formats_es_cl() {
        assert_eq!(format_amount(d("1234567"), Some("CLP")), "$1.234.567");
        assert_eq!(format_amount(d("1234.5678"), Some("CLF")), "UF 1.234,5678");
        assert_eq!(format_amount(d("12.3"), Some("CLF")), "UF 12,3000");
        assert_eq!(format_amount(d("-1500"), Some("CLP")), "-$1.500");
        assert_eq!(format_amount(d("999"), Some("CLP")), "$999");
        assert_eq!(format_amount(d("1000.5"), Some("CLP")), "$1.000,5");
        assert_eq!(format_amount(d("1000"), Some("USD")), "US$ 1.000,00");
        assert_eq!(format_amount(d("1234.5"), Some("EUR")), "EUR 1.234,50");
        assert_eq!(format_amount(d("1000"), Some("JPY")), "JPY 1.000");
        assert_eq!(format_amount(d("1.5"), Some("BHD")), "BHD 1,500");
        assert_eq!(format_amount(d("1000"), Some("XYZ")), "1.000 XYZ");
        assert_eq!(format_amount(d("1000"), None), "1.000");
    }

    #[test]
    fn json_numbers_are_exact() {
        assert_eq!(to_json_number(d("12.3456")).to_string(), "12.3456");
        assert_eq!(to_json_number(d("1000.00")).to_string(), "1000");
        let v: Value = serde_json::from_str("[12.3456, \"1000\", 1e3, 0.1, true]").unwrap();
        let got: Vec<_> = v.as_array().unwrap().iter().map(from_json).collect();
        assert_eq!(
            got,
            vec![
                Some(d("12.3456")),
                Some(d("1000")),
                Some(d("1000")),
                Some(d("0.1")),
                None
            ]
        );
        let body = serde_json::json!({ "amount": to_json_number(d("12.3456")) });
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"amount":12.3456}"#
        );
    }
}
