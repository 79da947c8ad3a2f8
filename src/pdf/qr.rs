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

/// Whether `text` fits in a QR code (else the link is given without one).
pub(super) fn fits(text: &str) -> bool {
    qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).is_ok()
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
}
