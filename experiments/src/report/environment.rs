//! The machine and moment a report was made on.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where and when a report was made.
#[derive(Debug, Clone, PartialEq)]
pub struct Environment {
    /// The version of the experiments crate (the workspace version).
    pub version: String,
    /// The start of the run, `YYYY-MM-DD HH:MM:SS UTC`.
    pub date_utc: String,
    /// The CPU model (from `/proc/cpuinfo`), or `unknown`.
    pub cpu: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// Operating system and architecture.
    pub platform: String,
}

impl Environment {
    /// Reads the environment now.
    pub fn detect() -> Environment {
        let seconds =
            SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        Environment {
            version: env!("CARGO_PKG_VERSION").to_string(),
            date_utc: utc_date(seconds),
            cpu: std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|text| cpu_model(&text))
                .unwrap_or_else(|| "unknown".to_string()),
            cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            platform: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }
}

/// The CPU model in the text of `/proc/cpuinfo` (`model name`, or `Hardware`/`Processor`
/// on some ARM kernels).
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "Processor", "cpu model"].iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            (name.trim() == *key && !value.trim().is_empty()).then(|| value.trim().to_string())
        })
    })
}

/// Seconds since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC` (proleptic Gregorian calendar).
pub fn utc_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let time = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

/// The calendar date `days` after 1970-01-01, counting in 400-year eras of 146 097 days.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468; // days since 0000-03-01
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month =
        if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_match_known_instants() {
        assert_eq!(utc_date(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14 22:13:20 UTC");
        assert_eq!(utc_date(4_102_444_799), "2099-12-31 23:59:59 UTC");
    }

    #[test]
    fn cpu_model_is_found() {
        let text =
            "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Example CPU @ 2.00GHz\n";
        assert_eq!(cpu_model(text).as_deref(), Some("Example CPU @ 2.00GHz"));
        assert_eq!(cpu_model("processor : 0\n"), None);
        let detected = Environment::detect();
        assert!(detected.cores >= 1 && detected.date_utc.ends_with("UTC"));
    }
}
