//! Engine options as CECP advertises them (`feature option="..."`) and checks
//! the values the GUI sends back.

use plugboard_plugin_api::{OptionKind, OptionSpec};

/// The text inside `feature option="..."` for `spec` with its current value.
pub fn advertise(spec: &OptionSpec, current: &str) -> String {
    let name = sanitize(&spec.name);
    let kind = spec.kind.cecp_name();
    match spec.kind {
        OptionKind::Button | OptionKind::Save | OptionKind::Reset => format!("{name} -{kind}"),
        OptionKind::Spin | OptionKind::Slider => format!("{name} -{kind} {current} {} {}", spec.min, spec.max),
        OptionKind::Combo => {
            let choices: Vec<String> = spec
                .choices
                .iter()
                .map(|choice| {
                    let choice = sanitize(choice);
                    if choice == current { format!("*{choice}") } else { choice }
                })
                .collect();
            format!("{name} -{kind} {}", choices.join(" /// "))
        }
        OptionKind::Check | OptionKind::String | OptionKind::File | OptionKind::Path => {
            format!("{name} -{kind} {}", sanitize(current))
        }
    }
}

/// Checks a value the GUI sent for `spec`; returns it normalised.
pub fn validate(spec: &OptionSpec, value: Option<&str>) -> Result<String, String> {
    let value = value.unwrap_or("").trim();
    match spec.kind {
        OptionKind::Button | OptionKind::Save | OptionKind::Reset => Ok(String::new()),
        OptionKind::Check => match value {
            "1" | "true" | "on" => Ok("1".into()),
            "0" | "false" | "off" => Ok("0".into()),
            _ => Err(format!("{} must be 0 or 1", spec.name)),
        },
        OptionKind::Spin | OptionKind::Slider => {
            let number: i64 = value.parse().map_err(|_| format!("{} must be a whole number", spec.name))?;
            if (spec.min..=spec.max).contains(&number) {
                Ok(number.to_string())
            } else {
                Err(format!("{} must be between {} and {}", spec.name, spec.min, spec.max))
            }
        }
        OptionKind::Combo => spec
            .choices
            .iter()
            .find(|choice| choice.as_str() == value)
            .map(|choice| choice.to_string())
            .ok_or_else(|| format!("{} has no choice named {value}", spec.name)),
        OptionKind::String | OptionKind::File | OptionKind::Path => Ok(value.to_owned()),
    }
}

/// Quotes and line breaks would end the feature string early.
fn sanitize(text: &str) -> String {
    text.chars().map(|c| if c == '"' || c.is_control() { '\'' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combo_marks_the_current_choice() {
        let spec = OptionSpec::combo("Evaluation", "pesto", &["pesto", "material"]);
        assert_eq!(advertise(&spec, "material"), "Evaluation -combo pesto /// *material");
    }

    #[test]
    fn spin_is_range_checked() {
        let spec = OptionSpec::spin("Move overhead", 50, 0, 5000);
        assert_eq!(advertise(&spec, "50"), "Move overhead -spin 50 0 5000");
        assert_eq!(validate(&spec, Some("100")), Ok("100".into()));
        assert!(validate(&spec, Some("5001")).is_err());
        assert!(validate(&spec, Some("x")).is_err());
    }
}
