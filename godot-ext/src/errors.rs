//! Errors and warnings the server pushes to Godot, each reported once (per key, or per
//! call site and kind of error), so a call repeated every frame does not flood the output.
//!
//! Most of Godot's server calls return nothing, so an error the core returns to such a
//! call has no way back but the output: every such call site reports it with
//! [`OrReport::or_report`] and a [`site!`], naming the Godot call, e.g.
//! `body_set_state(LINEAR_VELOCITY): velocity = 1e30 must be …`.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, Ordering};

use godot::prelude::*;

use crate::settings::CAPACITY_SETTINGS;

/// Warns once per key (a feature or a method name).
pub(crate) fn warn_once(key: &str, message: &str) {
    static WARNED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if warned.insert(key.to_string()) {
        godot_warn!("Maul3D: {message}");
    }
}

/// Reports an error once per key.
pub(crate) fn error_once(key: &str, message: &str) {
    static REPORTED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
    if reported.insert(key.to_string()) {
        godot_error!("Maul3D: {message}");
    }
}

/// The setting that bounds what a failed create ran out of.
fn capacity_setting(e: &maul3d::Error) -> Option<&'static str> {
    let text = e.to_string();
    for (name, _) in CAPACITY_SETTINGS {
        let what = name.trim_end_matches("_capacity");
        if text.contains("capacity") && text.contains(what) {
            return Some(name);
        }
    }
    None
}

pub(crate) fn report_create_error(what: &str, e: &maul3d::Error) {
    match capacity_setting(e) {
        Some(setting) => error_once(
            setting,
            &format!(
                "a space is full ({e}); the {what} stays inert. Raise the project setting physics/maul3d/{setting}."
            ),
        ),
        None => error_once(what, &format!("creating a {what} failed: {e}")),
    }
}

/// One place the server calls the core on behalf of a Godot call that cannot return the
/// core's error: the Godot call it names in the report, and the kinds of error already
/// reported there (bit k: [`error_kind`] k), so each kind is reported once per site.
pub(crate) struct Site {
    call: &'static str,
    reported: AtomicU16,
}

impl Site {
    /// A site that reports as `call` (a Godot call, e.g. `body_set_state(SLEEPING)`).
    pub(crate) const fn new(call: &'static str) -> Site {
        Site {
            call,
            reported: AtomicU16::new(0),
        }
    }

    /// The Godot call the site reports as.
    pub(crate) fn call(&self) -> &'static str {
        self.call
    }

    /// Reports `e` unless an error of its kind was reported here before; true when it
    /// was reported now.
    pub(crate) fn report(&self, e: &maul3d::Error) -> bool {
        let bit = 1u16 << error_kind(e);
        let first = self.reported.fetch_or(bit, Ordering::Relaxed) & bit == 0;
        if first {
            godot_error!("Maul3D: {}: {e}", self.call);
        }
        first
    }
}

/// A [`Site`] of its own for the place this is written, reporting as the Godot call
/// given: `result.or_report(site!("body_set_state(SLEEPING)"))`.
macro_rules! site {
    ($call:expr) => {{
        static SITE: $crate::errors::Site = $crate::errors::Site::new($call);
        &SITE
    }};
}
pub(crate) use site;

/// The core's result of a call made for Godot, its error reported at a [`Site`].
pub(crate) trait OrReport<T> {
    /// The value, or `None` once the error is reported (the first of its kind at `site`).
    fn or_report(self, site: &Site) -> Option<T>;
}

impl<T> OrReport<T> for maul3d::Result<T> {
    fn or_report(self, site: &Site) -> Option<T> {
        self.inspect_err(|e| {
            site.report(e);
        })
        .ok()
    }
}

/// A small number per kind of core error (below 16: a bit of [`Site`]'s set).
fn error_kind(e: &maul3d::Error) -> u32 {
    use maul3d::Error;
    match e {
        Error::Argument { .. } => 0,
        Error::Capacity { .. } | Error::TooSmall { .. } => 1,
        Error::InvalidId { .. } => 2,
        Error::State(_) => 3,
        Error::OutOfBounds { .. } => 4,
        Error::BodyOutOfBounds { .. } => 5,
        Error::Format(_) => 6,
        Error::Version { .. } => 7,
        Error::Busy => 8,
    }
}
