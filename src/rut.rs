//! Chilean tax ids (RUT): reading them as clerks write them (`76.123.456-7`,
//! `76123456-7`, `761234567`, `k` or `K`), checking the check digit (módulo 11), and
//! writing them the usual way.

/// A RUT whose check digit is right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rut {
    number: u32,
    check: char,
}

/// Why a text is not a RUT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RutError {
    /// Not digits and a check digit.
    NotARut,
    /// The check digit does not match the number.
    WrongCheckDigit {
        /// The one it should be.
        expected: char,
    },
}

/// The check digit of a RUT number (módulo 11): `0`–`9` or `K`.
pub fn check_digit(mut n: u64) -> char {
    let mut sum = 0;
    let mut factor = 2;
    while n > 0 {
        sum += (n % 10) * factor;
        n /= 10;
        factor = if factor == 7 { 2 } else { factor + 1 };
    }
    match 11 - (sum % 11) {
        11 => '0',
        10 => 'K',
        d => char::from_digit(d as u32, 10).unwrap_or('0'),
    }
}

impl Rut {
    /// Reads a RUT: dots and spaces ignored, the last character (after an optional `-`)
    /// is the check digit.
    pub fn parse(text: &str) -> Result<Rut, RutError> {
        let clean: Vec<char> = text
            .trim()
            .chars()
            .filter(|c| !matches!(c, '.' | ' ' | '-'))
            .collect();
        let (check, digits) = clean.split_last().ok_or(RutError::NotARut)?;
        let check = check.to_ascii_uppercase();
        if digits.is_empty()
            || digits.len() > 9
            || !digits.iter().all(char::is_ascii_digit)
            || !(check.is_ascii_digit() || check == 'K')
        {
            return Err(RutError::NotARut);
        }
        let number: u32 = digits
            .iter()
            .collect::<String>()
            .parse()
            .map_err(|_| RutError::NotARut)?;
        let expected = check_digit(u64::from(number));
        if expected != check {
            return Err(RutError::WrongCheckDigit { expected });
        }
        Ok(Rut { number, check })
    }

    /// Whether it is a person's (a natural person's RUT is below 50.000.000; the SII
    /// numbers companies and other legal entities from there up).
    pub fn is_person(&self) -> bool {
        self.number < 50_000_000
    }

    /// The digits and check digit only (`761234567`), for searching.
    pub fn compact(&self) -> String {
        format!("{}{}", self.number, self.check)
    }
}

impl std::fmt::Display for Rut {
    /// `76.123.456-7`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.number.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push('.');
            }
            grouped.push(c);
        }
        write!(f, "{grouped}-{}", self.check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits_and_the_ways_clerks_write_them() {
        assert_eq!(check_digit(11_111_111), '1');
        assert_eq!(check_digit(12_345_678), '5');
        assert_eq!(check_digit(30_686_957), '4');
        let r = Rut::parse("12.345.678-5").unwrap();
        assert_eq!(r.to_string(), "12.345.678-5");
        assert_eq!(Rut::parse("123456785").unwrap(), r);
        assert_eq!(Rut::parse(" 12345678-5 ").unwrap(), r);
        assert_eq!(r.compact(), "123456785");
        let k = (1..100_000u64).find(|n| check_digit(*n) == 'K').unwrap();
        assert_eq!(
            Rut::parse(&format!("{k}-k"))
                .unwrap()
                .to_string()
                .chars()
                .last(),
            Some('K')
        );
        assert_eq!(
            Rut::parse("12.345.678-9"),
            Err(RutError::WrongCheckDigit { expected: '5' })
        );
        for bad in ["", "-", "abc", "12.345.678-X", "1234567890123-1", "5"] {
            assert!(Rut::parse(bad).is_err(), "{bad}");
        }
    }
}
