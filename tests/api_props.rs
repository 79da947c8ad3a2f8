//! Property tests: exact amounts survive formatting, parsing and JSON; decoders never panic.

use invoice_desk::api::model::{Invoice, Page};
use invoice_desk::api::money::{self, Currency};
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::Value;

fn amount(max_scale: u32) -> impl Strategy<Value = Decimal> {
    (1u64..=999_999_999_999u64, 0..=max_scale)
        .prop_map(|(units, scale)| Decimal::from_i128_with_scale(units as i128, scale).normalize())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[0-9]{1,20}(\\.[0-9]{1,30})?(e-?[0-9]{1,3})?"
            .prop_map(|s| serde_json::from_str(&s).unwrap_or(Value::Null)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("id"),
            Just("amount"),
            Just("items"),
            Just("next_cursor"),
            Just("page")
        ]
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        let key = prop_oneof![
            Just("id".to_string()),
            Just("amount".to_string()),
            Just("currency_code".to_string()),
            Just("items".to_string()),
            Just("data".to_string()),
            Just("next_cursor".to_string()),
            Just("next".to_string()),
            Just("page".to_string()),
            Just("total_pages".to_string()),
            Just("next_page".to_string()),
            Just("has_more".to_string()),
            Just("invoices".to_string()),
            Just("is_void".to_string()),
            Just("customer".to_string()),
            ".{0,6}".prop_map(|s: String| s),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn clf_amounts_round_trip_through_es_cl_text(a in amount(4)) {
        let text = money::format_amount(a, Some("CLF"));
        prop_assert_eq!(money::parse_amount_input(&text, Some(Currency::CLF)), Ok(a));
    }

    #[test]
    fn clp_amounts_round_trip_through_es_cl_text(a in amount(0)) {
        let text = money::format_amount(a, Some("CLP"));
        prop_assert_eq!(money::parse_amount_input(&text, Some(Currency::CLP)), Ok(a));
    }

    #[test]
    fn amounts_round_trip_through_json_exactly(a in amount(6)) {
        let text = serde_json::to_string(&Value::Number(money::to_json_number(a))).unwrap();
        prop_assert_eq!(&text, &a.to_string());
        let back: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(money::from_json(&back), Some(a));
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(s in ".{0,40}") {
        let _ = money::parse_amount_input(&s, Some(Currency::CLF));
        let _ = money::parse_amount_input(&s, None);
    }

    #[test]
    fn streaming_and_tree_decoding_agree(v in json_value()) {
        let bytes = serde_json::to_vec(&v).unwrap();
        let streamed = Page::from_slice(&bytes).map_err(|e| e.kind);
        let tree = Page::from_value(v).map_err(|e| e.kind);
        prop_assert_eq!(streamed, tree);
    }

    #[test]
    fn decoders_never_panic(v in json_value()) {
        let _ = Invoice::from_value(v.clone()).map(|i| (i.status(), i.fields(), i.amount_display()));
        let _ = Page::from_value(v);
    }
}

proptest! {
    /// Every currency of the ISO 4217 table: an amount with up to its minor units is
    /// shown the Chilean way and read back exactly; one more decimal is refused.
    #[test]
    fn every_iso_currency_round_trips(units in 1u64..10_000_000_000, decimals in 0u32..6) {
        use invoice_desk::api::{Currency, money};
        for c in Currency::all() {
            let scale = decimals.min(c.minor_units());
            let amount = rust_decimal::Decimal::from_i128_with_scale(units as i128, scale);
            let shown = money::format_amount(amount, Some(c.code()));
            prop_assert_eq!(
                money::parse_amount_input(&shown, Some(c)),
                Ok(amount.normalize()),
                "{} {}", c.code(), shown
            );
            let json = money::to_json_number(amount);
            prop_assert_eq!(money::from_json(&serde_json::Value::Number(json)), Some(amount.normalize()));
            let too_fine = rust_decimal::Decimal::from_i128_with_scale(
                units as i128 * 10 + 7,
                c.minor_units() + 1,
            );
            let typed = money::format_es_cl(too_fine, 0);
            prop_assert!(money::parse_amount_input(&typed, Some(c)).is_err(), "{} {}", c.code(), typed);
        }
    }
}
