//! The engine's own options, as opposed to a plugin's: the ones the host acts on
//! itself (time, the number of lines it asks the search for, its draw policy).

use plugboard_plugin_api::OptionSpec;

use crate::protocol::options;

pub const OVERHEAD: &str = "Move overhead";
pub const MULTI_PV: &str = "MultiPV";
pub const CONTEMPT: &str = "Contempt";

const DEFAULT_OVERHEAD_MS: u64 = 50;
const DEFAULT_CONTEMPT_CP: i32 = 50;
const MAX_MULTI_PV: i64 = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostOptions {
    /// Held back from every move for the GUI's and the network's delays.
    pub overhead_ms: u64,
    /// Principal variations the search reports; 1 in play, more to analyse.
    pub multipv: u32,
    /// How much worse than even the engine must stand before it takes a draw.
    pub contempt_cp: i32,
}

impl Default for HostOptions {
    fn default() -> HostOptions {
        HostOptions { overhead_ms: DEFAULT_OVERHEAD_MS, multipv: 1, contempt_cp: DEFAULT_CONTEMPT_CP }
    }
}

impl HostOptions {
    /// The options to advertise, with their current values.
    pub fn specs(&self) -> Vec<(OptionSpec, String)> {
        vec![
            (OptionSpec::spin(OVERHEAD, DEFAULT_OVERHEAD_MS as i64, 0, 5000), self.overhead_ms.to_string()),
            (OptionSpec::spin(MULTI_PV, 1, 1, MAX_MULTI_PV), self.multipv.to_string()),
            (OptionSpec::spin(CONTEMPT, i64::from(DEFAULT_CONTEMPT_CP), -1000, 1000), self.contempt_cp.to_string()),
        ]
    }

    /// Sets `name` if it is one of ours: `None` when it is not, else whether the value was taken.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), String>> {
        let (spec, _) = self.specs().into_iter().find(|(spec, _)| spec.name.as_str() == name)?;
        let result = options::validate(&spec, value).and_then(|text| {
            let number: i64 = text.parse().map_err(|_| format!("{name} takes a number, not {text}"))?;
            match name {
                OVERHEAD => self.overhead_ms = number as u64,
                MULTI_PV => self.multipv = number as u32,
                _ => self.contempt_cp = number as i32,
            }
            Ok(())
        });
        Some(result)
    }

    /// `(name, value)` pairs for the settings file.
    pub fn saved(&self) -> Vec<(String, String)> {
        self.specs().into_iter().map(|(spec, value)| (spec.name.to_string(), value)).collect()
    }

    /// Whether a draw is worth taking at `score` (centipawns, ours; `None` before any search).
    pub fn accepts_draw_at(&self, score: Option<i32>) -> bool {
        score.is_some_and(|score| score <= -self.contempt_cp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_range_checked_and_kept() {
        let mut options = HostOptions::default();
        assert_eq!(options.set(MULTI_PV, Some("4")), Some(Ok(())));
        assert_eq!(options.multipv, 4);
        assert!(matches!(options.set(MULTI_PV, Some("0")), Some(Err(_))));
        assert!(matches!(options.set(CONTEMPT, Some("lots")), Some(Err(_))));
        assert_eq!(options.multipv, 4);
        assert_eq!(options.set("Hash", Some("4")), None);
    }

    #[test]
    fn contempt_sets_how_bad_a_position_must_be_for_a_draw() {
        let mut options = HostOptions::default();
        assert!(options.accepts_draw_at(Some(-50)));
        assert!(!options.accepts_draw_at(Some(-49)));
        assert!(!options.accepts_draw_at(None));
        options.set(CONTEMPT, Some("-20")).unwrap().unwrap();
        // Negative contempt: the engine likes draws and takes one while slightly ahead.
        assert!(options.accepts_draw_at(Some(10)));
        assert!(!options.accepts_draw_at(Some(30)));
    }
}
