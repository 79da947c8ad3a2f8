//! The statement's fonts, DejaVu Sans embedded: loaded once, measured by skrifa (the
//! plan wraps and clips text with it), drawn by krilla (draw.rs).

use krilla::text::Font;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// A font, for drawing (krilla) and for measuring (skrifa's advances, cached per char).
pub(crate) struct Measure {
    pub(super) font: Font,
    skrifa: skrifa::FontRef<'static>,
    units_per_em: f32,
    advances: Mutex<HashMap<char, f32>>,
}

impl Measure {
    fn new(bytes: &'static [u8]) -> Measure {
        use skrifa::raw::TableProvider;
        let skrifa = skrifa::FontRef::new(bytes).expect("the embedded font is a font");
        let units_per_em = skrifa
            .head()
            .map(|h| f32::from(h.units_per_em()))
            .unwrap_or(2048.0);
        Measure {
            font: Font::new(krilla::Data::from(bytes), 0).expect("the embedded font loads"),
            skrifa,
            units_per_em,
            advances: Mutex::new(HashMap::new()),
        }
    }

    /// A character's advance at 1 point (no kerning: a few hundredths of a point at
    /// most, which the margins absorb).
    fn advance(&self, c: char) -> f32 {
        use skrifa::MetadataProvider;
        if let Some(a) = self.advances.lock().ok().and_then(|m| m.get(&c).copied()) {
            return a;
        }
        let metrics = self.skrifa.glyph_metrics(
            skrifa::instance::Size::unscaled(),
            skrifa::instance::LocationRef::default(),
        );
        let gid = self.skrifa.charmap().map(c).unwrap_or_default();
        let a = metrics.advance_width(gid).unwrap_or(0.0) / self.units_per_em;
        if let Ok(mut m) = self.advances.lock() {
            m.insert(c, a);
        }
        a
    }

    /// How wide `text` is at `size`.
    pub(crate) fn width(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.advance(c)).sum::<f32>() * size
    }

    /// How many of `text`'s first characters fit in `width` at `size`.
    pub(crate) fn fitting(&self, text: &str, size: f32, width: f32) -> usize {
        let mut used = 0.0;
        for (i, c) in text.chars().enumerate() {
            used += self.advance(c) * size;
            if used > width {
                return i;
            }
        }
        text.chars().count()
    }

    /// `text` cut with "…" to fit in `width` at `size`.
    pub(crate) fn clip(&self, text: &str, size: f32, width: f32) -> String {
        if self.width(text, size) <= width {
            return text.to_string();
        }
        let room = width - self.width("…", size);
        let n = self.fitting(text, size, room.max(0.0));
        let mut s: String = text.chars().take(n).collect();
        s.push('…');
        s
    }
}

/// The statement's two fonts, loaded once.
pub(crate) struct Fonts {
    pub(crate) regular: Measure,
    pub(crate) bold: Measure,
}

impl Fonts {
    pub(crate) fn get() -> &'static Fonts {
        static FONTS: OnceLock<Fonts> = OnceLock::new();
        FONTS.get_or_init(|| Fonts {
            regular: Measure::new(REGULAR),
            bold: Measure::new(BOLD),
        })
    }
}
