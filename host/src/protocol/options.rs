//! Engine options as CECP advertises them (`feature option="..."`).

use plugboard_plugin_api::{OptionKind, OptionSpec};

/// The text inside `feature option="..."` for `spec` with its current value.
pub fn advertise(spec: &OptionSpec, current: &str) -> String {
    let name = sanitize(&spec.name);
    let kind = spec.kind.cecp_name();
    match spec.kind {
        OptionKind::Button | OptionKind::Save => format!("{name} -{kind}"),
        // No xboard release knows `-reset` (4.9.1 rejects it, and the button with
        // it). A plain button does the same there: the list sent again after it
        // opens with `feature done=0`, on which xboard clears its old list.
        OptionKind::Reset => format!("{name} -{}", OptionKind::Button.cecp_name()),
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
    fn spin_shows_its_range() {
        let spec = OptionSpec::spin("Move overhead", 50, 0, 5000);
        assert_eq!(advertise(&spec, "50"), "Move overhead -spin 50 0 5000");
    }
}
