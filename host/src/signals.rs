//! SIGINT and SIGTERM become events: SIGINT never kills (old xboards send it
//! before every move), SIGTERM ends the process cleanly. `signal-hook` on Unix;
//! on Windows, where it does not serve the console's Ctrl-C, `ctrlc` (never both).

use std::sync::mpsc::Sender;

use crate::event::Event;

#[cfg(unix)]
pub fn install(inbox: Sender<Event>) {
    use signal_hook::{
        consts::{SIGINT, SIGTERM},
        iterator::Signals,
    };
    let mut signals = match Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(error) => {
            tracing::error!(%error, "cannot install signal handlers");
            return;
        }
    };
    let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
        crate::scheduling::prefer_latency();
        for signal in signals.forever() {
            let event = if signal == SIGTERM { Event::Terminate } else { Event::Interrupt };
            if signal == SIGTERM {
                crate::exit::arm("SIGTERM");
            }
            tracing::info!(signal, "signal received");
            if inbox.send(event).is_err() {
                return;
            }
        }
    });
}

#[cfg(windows)]
pub fn install(inbox: Sender<Event>) {
    let inbox = std::sync::Mutex::new(inbox);
    let installed = ctrlc::set_handler(move || {
        tracing::info!("Ctrl-C received");
        if let Ok(inbox) = inbox.lock() {
            let _ = inbox.send(Event::Interrupt);
        }
    });
    if let Err(error) = installed {
        tracing::error!(%error, "cannot install the Ctrl-C handler");
    }
}

#[cfg(not(any(unix, windows)))]
pub fn install(_inbox: Sender<Event>) {}
