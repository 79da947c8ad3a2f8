//! The sender's details a statement of account is headed with: the organization, its
//! RUT, how to reach it, an optional logo and how to pay. Kept with the profile (nothing
//! here is secret), checked before it is kept.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The largest logo read (a statement embeds it; a photo of several MB is a mistake).
pub const LOGO_MAX_BYTES: u64 = 1024 * 1024;

/// The most pixels a logo may have on either side (it is printed at most 160 × 56
/// points: 4,000 pixels is far more than any printer resolves there).
pub const LOGO_MAX_SIDE: usize = 4000;
/// The longest organization name, address, e-mail or phone kept.
pub const FIELD_MAX_CHARS: usize = 200;
/// The longest payment instructions kept.
pub const PAYMENT_TEXT_MAX_CHARS: usize = 2000;

/// Who sends the statements.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sender {
    /// The organization's name.
    pub organization: String,
    /// Its RUT, as typed (check digit verified).
    pub rut: String,
    /// Its address.
    pub address: String,
    /// A contact e-mail.
    pub email: String,
    /// A contact phone.
    pub phone: String,
    /// A PNG or JPEG logo on this computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<PathBuf>,
    /// How to pay (bank, account), printed at the end of a statement.
    pub payment_text: String,
}

/// What is wrong with the sender's details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SenderError {
    /// The RUT is not one (its check digit, or its form).
    BadRut(String),
    /// The e-mail has no `@` between a name and a domain.
    BadEmail(String),
    /// A field is longer than kept (which field, its limit).
    TooLong(&'static str, usize),
    /// The logo cannot be read, or is not a PNG or JPEG.
    LogoUnreadable(PathBuf, String),
    /// The logo is larger than [`LOGO_MAX_BYTES`].
    LogoTooLarge(PathBuf, u64),
    /// The logo says it has more pixels than [`LOGO_MAX_SIDE`] on a side (its width and
    /// height as it says).
    LogoTooManyPixels(PathBuf, usize, usize),
}

crate::engineers_text!(SenderError);

/// A logo's kind, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogoKind {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl Sender {
    /// Nothing given.
    pub fn is_empty(&self) -> bool {
        *self == Sender::default()
    }

    /// Checks every field without touching the disk (the logo is read by
    /// [`Sender::check_logo`], and again whenever a statement is made).
    pub fn validate(&self) -> Result<(), SenderError> {
        let long = |text: &str, what: &'static str, max: usize| {
            if text.chars().count() > max {
                Err(SenderError::TooLong(what, max))
            } else {
                Ok(())
            }
        };
        long(&self.organization, "name", FIELD_MAX_CHARS)?;
        long(&self.address, "address", FIELD_MAX_CHARS)?;
        long(&self.email, "e-mail", FIELD_MAX_CHARS)?;
        long(&self.phone, "phone", FIELD_MAX_CHARS)?;
        long(&self.payment_text, "payment text", PAYMENT_TEXT_MAX_CHARS)?;
        let rut = self.rut.trim();
        if !rut.is_empty() && crate::rut::Rut::parse(rut).is_err() {
            return Err(SenderError::BadRut(rut.to_string()));
        }
        let email = self.email.trim();
        if !email.is_empty() {
            let ok = email.split_once('@').is_some_and(|(name, domain)| {
                !name.is_empty() && domain.contains('.') && !domain.contains('@')
            }) && !email.chars().any(char::is_whitespace);
            if !ok {
                return Err(SenderError::BadEmail(email.to_string()));
            }
        }
        Ok(())
    }

    /// Reads the logo, if one is given, and decodes it whole: it must be a PNG or JPEG
    /// of at most [`LOGO_MAX_BYTES`] and [`LOGO_MAX_SIDE`] pixels a side that a reader
    /// can draw (a statement embeds a JPEG as it is: a corrupt one would reach every
    /// customer).
    pub fn check_logo(&self) -> Result<(), SenderError> {
        let Some(p) = &self.logo else {
            return Ok(());
        };
        let (bytes, kind) = read_logo(p)?;
        decodes(&bytes, kind).map_err(|why| SenderError::LogoUnreadable(p.clone(), why))
    }
}

/// Reads a logo: its bytes and kind, size checked before it is read.
pub fn read_logo(path: &Path) -> Result<(Vec<u8>, LogoKind), SenderError> {
    use std::io::Read;
    let unreadable = |why: String| SenderError::LogoUnreadable(path.to_path_buf(), why);
    let file = std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?;
    let size = file
        .metadata()
        .map_err(|e| unreadable(e.to_string()))?
        .len();
    if size > LOGO_MAX_BYTES {
        return Err(SenderError::LogoTooLarge(path.to_path_buf(), size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // A file that grows while read is still cut at the limit.
    file.take(LOGO_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(e.to_string()))?;
    if bytes.len() as u64 > LOGO_MAX_BYTES {
        return Err(SenderError::LogoTooLarge(
            path.to_path_buf(),
            bytes.len() as u64,
        ));
    }
    let kind = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        LogoKind::Png
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        LogoKind::Jpeg
    } else {
        return Err(unreadable("not a PNG or JPEG image".into()));
    };
    // Its size as its header says, before anything decodes it.
    let size = imagesize::blob_size(&bytes).map_err(|e| unreadable(e.to_string()))?;
    if size.width == 0 || size.height == 0 {
        return Err(unreadable("an image of no pixels".into()));
    }
    if size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE {
        return Err(SenderError::LogoTooManyPixels(
            path.to_path_buf(),
            size.width,
            size.height,
        ));
    }
    Ok((bytes, kind))
}

/// Decodes a whole logo (its pixels already bounded by its header, so the buffer is at
/// most 4,000 × 4,000 × 8 bytes): why it cannot be drawn, if it cannot.
fn decodes(bytes: &[u8], kind: LogoKind) -> Result<(), String> {
    match kind {
        LogoKind::Png => {
            let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .map_err(|e| e.to_string())?;
            let size = reader
                .output_buffer_size()
                .ok_or_else(|| "too large".to_string())?;
            let mut pixels = vec![0u8; size];
            reader.next_frame(&mut pixels).map_err(|e| e.to_string())?;
        }
        LogoKind::Jpeg => {
            // Strict: a lenient decoder draws grey where the data is missing.
            let options = zune_jpeg::zune_core::options::DecoderOptions::default()
                .set_strict_mode(true)
                .set_max_width(LOGO_MAX_SIDE)
                .set_max_height(LOGO_MAX_SIDE);
            zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(bytes), options)
                .decode()
                .map_err(|e| format!("{e:?}"))?;
        }
    }
    // And as the statement embeds it (`pdf::draw`): a PNG the PNG reader takes may still
    // be one the embedder cannot draw (an indexed image without its palette).
    embeds(bytes, kind)
}

/// The logo as the statement's PDF writer takes it (`pdf::draw` embeds this).
pub fn logo_image(bytes: &[u8], kind: LogoKind) -> Result<krilla::image::Image, String> {
    let data = krilla::Data::from(bytes.to_vec());
    match kind {
        LogoKind::Png => krilla::image::Image::from_png(data, true),
        LogoKind::Jpeg => krilla::image::Image::from_jpeg(data, true),
    }
}

/// Whether the statement's PDF writer can draw the logo: [`logo_image`] on a page.
fn embeds(bytes: &[u8], kind: LogoKind) -> Result<(), String> {
    let image = logo_image(bytes, kind)?;
    // The writer decodes an image when the document is finished: a page with it, made.
    let size = krilla::geom::Size::from_wh(16.0, 16.0).ok_or("no size")?;
    let mut doc = krilla::Document::new();
    let mut page = doc.start_page();
    page.surface().draw_image(image, size);
    page.finish();
    doc.finish().map(|_| ()).map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_is_checked_field_by_field() {
        let ok = Sender {
            organization: "Servicios Ñandú SpA".into(),
            rut: "76.123.456-0".into(),
            email: "cobranza@nandu.cl".into(),
            ..Sender::default()
        };
        assert_eq!(ok.validate(), Ok(()));
        let bad_rut = Sender {
            rut: "76.123.456-1".into(),
            ..ok.clone()
        };
        assert!(matches!(bad_rut.validate(), Err(SenderError::BadRut(_))));
        let bad_mail = Sender {
            email: "cobranza nandu.cl".into(),
            ..ok.clone()
        };
        assert!(matches!(bad_mail.validate(), Err(SenderError::BadEmail(_))));
        let long = Sender {
            organization: "x".repeat(FIELD_MAX_CHARS + 1),
            ..ok.clone()
        };
        assert!(matches!(long.validate(), Err(SenderError::TooLong(..))));
    }

    #[test]
    fn a_logo_must_be_a_small_png_or_jpeg() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("logo.png");
        std::fs::write(&text, b"not an image").unwrap();
        assert!(matches!(
            read_logo(&text),
            Err(SenderError::LogoUnreadable(..))
        ));
        let big = dir.path().join("big.png");
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.resize(LOGO_MAX_BYTES as usize + 1, 0);
        std::fs::write(&big, bytes).unwrap();
        assert!(matches!(
            read_logo(&big),
            Err(SenderError::LogoTooLarge(..))
        ));
        let missing = dir.path().join("none.jpg");
        assert!(matches!(
            read_logo(&missing),
            Err(SenderError::LogoUnreadable(..))
        ));
    }
}

#[cfg(test)]
mod logo_tests {
    use super::*;

    /// An indexed PNG whose palette is missing: the PNG reader takes its indices as
    /// they are, the statement's embedder cannot draw it.
    fn without_palette() -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut e = png::Encoder::new(&mut out, 2, 2);
            e.set_color(png::ColorType::Grayscale);
            e.set_depth(png::BitDepth::Eight);
            let mut w = e.write_header().unwrap();
            w.write_image_data(&[0, 1, 1, 0]).unwrap();
        }
        // IHDR's colour type byte (offset 8 + 8 + 9): grey (0) → indexed (3), its CRC
        // made again.
        out[25] = 3;
        let crc = crc32(&out[12..29]);
        out[29..33].copy_from_slice(&crc.to_be_bytes());
        out
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for b in bytes {
            c ^= u32::from(*b);
            for _ in 0..8 {
                c = if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    /// #66 (9): a logo is accepted only if the statement can draw it: checked as the
    /// statement reads it, not by another reader.
    #[test]
    fn a_logo_the_statement_cannot_draw_is_refused_when_set() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sin-paleta.png");
        std::fs::write(&path, without_palette()).unwrap();
        let sender = Sender {
            logo: Some(path),
            ..Sender::default()
        };
        assert!(
            matches!(sender.check_logo(), Err(SenderError::LogoUnreadable(..))),
            "{:?}",
            sender.check_logo()
        );
    }
}
