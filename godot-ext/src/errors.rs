//! Errors and warnings the server pushes to Godot, each reported once (per key), so a
//! call repeated every frame does not flood the output.

use std::collections::BTreeSet;
use std::sync::Mutex;

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
