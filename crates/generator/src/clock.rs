//! Timestamps: parsing the start time and printing milliseconds since the epoch the way JS
//! `Date.prototype.toISOString` does.

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Milliseconds since the epoch of a UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` or
/// `YYYY-MM-DDTHH:MM:SS.sssZ` (the form `toISOString` prints for years 0000-9999).
pub fn parse_iso_utc(s: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "startTime must be a UTC timestamp like \"2026-06-10T00:00:00.000Z\", got {:?}",
            s
        )
    };
    let b = s.as_bytes();
    let (core, millis) = match b.len() {
        20 => (b, None),
        24 => (b.get(..19).ok_or_else(bad)?, b.get(20..23)),
        _ => return Err(bad()),
    };
    let shape_ok = b.get(4) == Some(&b'-')
        && b.get(7) == Some(&b'-')
        && b.get(10) == Some(&b'T')
        && b.get(13) == Some(&b':')
        && b.get(16) == Some(&b':')
        && b.last() == Some(&b'Z')
        && (millis.is_none() || b.get(19) == Some(&b'.'));
    if !shape_ok {
        return Err(bad());
    }
    let num = |from: usize, to: usize| -> Result<i64, String> {
        let part = core.get(from..to).ok_or_else(bad)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        Ok(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (y, mo, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (h, mi, sec) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let ms = match millis {
        Some(m) if m.iter().all(u8::is_ascii_digit) => {
            m.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0'))
        }
        Some(_) => return Err(bad()),
        None => 0,
    };
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59
    {
        return Err(bad());
    }
    Ok(((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms)
}

/// JS `new Date(ms).toISOString()` (years outside 0000-9999 as `+YYYYYY` / `-YYYYYY`).
pub fn format_iso(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s, milli) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("+{y:06}")
    };
    format!("{year}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "2026-06-10T00:00:00.000Z",
            "1970-01-01T00:00:00.000Z",
            "2000-02-29T23:59:59.999Z",
            "1969-12-31T23:59:59.999Z",
            "0000-01-01T00:00:00.000Z",
            "9999-12-31T23:59:59.999Z",
        ] {
            let ms = parse_iso_utc(s).unwrap();
            assert_eq!(format_iso(ms), s);
        }
        assert_eq!(
            parse_iso_utc("2026-06-10T00:00:00.000Z").unwrap(),
            1_781_049_600_000
        );
        assert_eq!(
            parse_iso_utc("2026-06-10T00:00:01Z").unwrap(),
            1_781_049_601_000
        );
        assert_eq!(
            format_iso(-62_198_755_200_000),
            "-000001-01-01T00:00:00.000Z"
        );
        assert_eq!(
            format_iso(253_402_300_800_000),
            "+010000-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn rejects_other_forms() {
        for s in [
            "",
            "2026-06-10",
            "2026-02-30T00:00:00.000Z",
            "2026-06-10T00:00:00.000",
            "2026-06-10T24:00:00Z",
            "2026-06-10T00:00:00.0a0Z",
        ] {
            assert!(parse_iso_utc(s).is_err(), "{s}");
        }
    }
}
