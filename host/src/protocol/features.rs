//! The features we announce after `protover`, and what the GUI said of them.

use std::collections::BTreeSet;

/// Everything but the options, in the order announced; `done=0` goes first
/// because scanning plugin folders may be slow, `done=1` last.
pub fn announcement(engine_name: &str, variants: &str) -> Vec<String> {
    // Bughouse is crazyhouse on our board; the partner's board is the server's business.
    let mut variants = variants.to_owned();
    if variants.split(',').any(|v| v == "crazyhouse") {
        variants.push_str(",bughouse");
    }
    // Any variant defined as data plays on another board too (`WxH+S_NAME`).
    if variants.split(',').any(|v| crate::game::defined::variant(v).is_some()) {
        variants.push_str(",boardsize");
    }
    vec![
        "done=0".to_owned(),
        format!(
            "myname=\"{engine_name}\" ping=1 setboard=1 usermove=1 playother=1 san=0 time=1 draw=1 \
             sigint=0 sigterm=1 reuse=1 analyze=1 colors=0 name=1 ics=1 nps=1 memory=1 smp=1 debug=1 \
             pause=1 exclude=1 setscore=1 highlight=1 egt=\"syzygy\" variants=\"{variants}\""
        ),
    ]
}

/// The GUI's answers to our features.
#[derive(Debug, Default, Clone)]
pub struct Negotiated {
    accepted: BTreeSet<String>,
    rejected: BTreeSet<String>,
    /// Features (and options) were announced, after `protover`.
    announced: bool,
}

impl Negotiated {
    pub fn announce(&mut self) {
        self.announced = true;
    }

    pub fn announced(&self) -> bool {
        self.announced
    }

    pub fn accept(&mut self, feature: &str) {
        self.rejected.remove(feature);
        self.accepted.insert(feature.to_owned());
    }

    pub fn reject(&mut self, feature: &str) {
        self.accepted.remove(feature);
        self.rejected.insert(feature.to_owned());
    }

    pub fn accepted(&self, feature: &str) -> bool {
        self.accepted.contains(feature)
    }

    pub fn rejected(&self, feature: &str) -> bool {
        self.rejected.contains(feature)
    }

    /// Whether the GUI answered `done`, the feature that ends the handshake:
    /// xboard, WinBoard and PyChess do, and read features all game long;
    /// python-chess (and lichess-bot through it) answers only the few it uses
    /// (`memory`, `smp`, `egt`), and takes a feature after the handshake for noise.
    pub fn answered(&self) -> bool {
        self.accepted("done") || self.rejected("done")
    }
}
