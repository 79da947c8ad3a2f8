//! A payment link's QR code, drawn as vector squares (one path per code, a rectangle
//! per run of dark modules in a row): sharp at any zoom or printer, and nothing per
//! code but the page's own content (an image per code carried a compressor's state each,
//! hundreds of kilobytes, on a 2,000-invoice statement).

use krilla::geom::{Path, PathBuilder, Rect};

/// White modules around the code, as the standard asks for a reader to find it.
const QUIET: usize = 4;

/// The QR code of `text` (error correction M: a printed code may be smudged), `side`
/// points square with its quiet zone, its top left corner at the origin; `None` when
/// the text is longer than a QR code holds.
pub(super) fn path(text: &str, side: f32) -> Option<Path> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    let width = code.width();
    let module = side / (width + 2 * QUIET) as f32;
    let colors = code.to_colors();
    let mut pb = PathBuilder::new();
    for (y, row) in colors.chunks(width).enumerate() {
        let mut x = 0;
        while x < width {
            if row[x] != qrcode::Color::Dark {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && row[x] == qrcode::Color::Dark {
                x += 1;
            }
            if let Some(r) = Rect::from_xywh(
                (start + QUIET) as f32 * module,
                (y + QUIET) as f32 * module,
                (x - start) as f32 * module,
                module,
            ) {
                pb.push_rect(r);
            }
        }
    }
    pb.finish()
}

/// The most bytes a QR code holds in byte mode at error correction M (version 40).
const BYTES_AT_M: usize = 2331;

/// Whether `text` fits in a QR code (else the link is given without one), by its length
/// alone: the plan asks this of every line, and encoding each code here as well as when
/// it is drawn cost a second encoding per invoice. Byte mode is the least compact the
/// encoder picks, so every text this admits is encoded (a test holds the two together).
pub(super) fn fits(text: &str) -> bool {
    text.len() <= BYTES_AT_M
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_link_longer_than_a_code_holds_has_no_code() {
        assert!(super::fits("https://pay.example/in_1"));
        assert!(super::path("https://pay.example/in_1", 44.0).is_some());
        let long = format!("https://pay.example/{}", "x".repeat(3000));
        assert!(!super::fits(&long));
        assert!(super::path(&long, 44.0).is_none());
    }

    #[test]
    fn what_fits_by_length_is_what_the_encoder_takes_at_the_limit() {
        let link = |n: usize| {
            let head = "https://pay.example/";
            format!(
                "{head}{}",
                "aZ9-_~.%"
                    .repeat(n)
                    .chars()
                    .take(n - head.len())
                    .collect::<String>()
            )
        };
        for n in [super::BYTES_AT_M - 1, super::BYTES_AT_M] {
            assert!(super::fits(&link(n)));
            assert!(
                super::path(&link(n), 44.0).is_some(),
                "{n} bytes fit and are drawn"
            );
        }
        let over = link(super::BYTES_AT_M + 1);
        assert!(!super::fits(&over));
        // Byte mode was the limit: the encoder refuses it too.
        assert!(super::path(&over, 44.0).is_none());
    }
}
