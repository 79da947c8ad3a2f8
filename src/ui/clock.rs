//! The app's one clock for "today": the computer's date, or a day the tests fix. Every
//! panel holds a copy (it is two words) and asks it, never the system directly.

use chrono::NaiveDate;

/// Today, as the app sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    fixed: Option<NaiveDate>,
}

impl Clock {
    /// A clock that always says `day` (tests).
    pub fn fixed(day: NaiveDate) -> Clock {
        Clock { fixed: Some(day) }
    }

    /// Today: the fixed day, or the computer's date.
    pub fn today(self) -> NaiveDate {
        self.fixed
            .unwrap_or_else(|| chrono::Local::now().date_naive())
    }

    /// The fixed day, if any: where work off the UI thread takes "today" from the desk's
    /// server instead of this computer (the e-mail runs), a fixed day still wins.
    pub fn fixed_day(self) -> Option<NaiveDate> {
        self.fixed
    }
}
