//! A payment link's QR code, as a tiny grey image drawn large without smoothing: one
//! sample per module, so a 2,000-invoice statement stays small and quick to write.

use krilla::image::{BitsPerComponent, CustomImage, Image, ImageColorspace};

/// White modules around the code, as the standard asks for a reader to find it.
const QUIET: usize = 4;

/// The code's modules as 8-bit grey samples (0 dark, 255 light), quiet zone included.
#[derive(Clone, Hash)]
struct Modules {
    side: u32,
    samples: Vec<u8>,
}

impl CustomImage for Modules {
    fn color_channel(&self) -> &[u8] {
        &self.samples
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        None
    }
    fn bits_per_component(&self) -> BitsPerComponent {
        BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        (self.side, self.side)
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> ImageColorspace {
        ImageColorspace::Luma
    }
}

/// The QR code of `text` (error correction M: a printed code may be smudged).
pub(super) fn image(text: &str) -> Result<Image, String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)
        .map_err(|e| format!("no QR code for the link: {e}"))?;
    let width = code.width();
    let side = width + 2 * QUIET;
    let mut samples = vec![255u8; side * side];
    for (i, c) in code.to_colors().iter().enumerate() {
        if *c == qrcode::Color::Dark {
            let (x, y) = (i % width + QUIET, i / width + QUIET);
            samples[y * side + x] = 0;
        }
    }
    Image::from_custom(
        Modules {
            side: side as u32,
            samples,
        },
        false,
    )
}
