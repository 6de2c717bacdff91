//! `Maul3DRecorder`: a node that records its world's physics space from `_ready` and
//! writes a replay file, with the `Maul3D` singleton's journal (`start_journal`,
//! `stop_journal`, `save_replay`) — it adds only the when and the where.

use godot::classes::{DirAccess, INode, Node, Time};
use godot::prelude::*;

use crate::singleton::{save_replay, start_journal, stop_journal};

/// The folder where recorders write their replays by default (the editor's replay dock
/// lists it).
pub const REPLAY_DIR: &str = "user://maul3d_replays";

/// Records the physics space of its `World3D` (every call that changes the Maul3D world
/// and every step) and saves it as a replay file that `Maul3DReplayPlayer`, the editor's
/// replay dock and `m3replay` open.
///
/// With `autostart` (the default) it starts recording when it is ready; with
/// `save_on_exit` (the default) it saves when it leaves the tree (the scene changes or
/// the game quits). `save()` saves at any moment, which ends the recording; `start()`
/// begins a new one. Files go to `user://maul3d_replays/` (see `get_replay_dir()`) under
/// `file_name`, or `<scene name>-<unix time>.m3replay` when that is empty.
///
/// Maul3D must be the physics server (`physics/3d/physics_engine = "Maul3D"`).
#[derive(GodotClass)]
#[class(base = Node)]
pub struct Maul3DRecorder {
    /// Start recording in `_ready`.
    #[var]
    autostart: bool,
    /// The journal's size limit in bytes (16 MiB by default); a recording that outgrows
    /// it cannot be saved.
    #[var]
    capacity_bytes: i64,
    /// The replay's file name in `user://maul3d_replays/` (or a whole path: `res://`,
    /// `user://` or absolute); empty: `<scene name>-<unix time>.m3replay`.
    #[var]
    file_name: GString,
    /// Save the recording when the node leaves the tree.
    #[var]
    save_on_exit: bool,
    /// The space being recorded (invalid when none).
    recording: Rid,
    base: Base<Node>,
}

#[godot_api]
impl INode for Maul3DRecorder {
    fn init(base: Base<Node>) -> Self {
        Self {
            autostart: true,
            capacity_bytes: 16 << 20,
            file_name: GString::new(),
            save_on_exit: true,
            recording: Rid::Invalid,
            base,
        }
    }

    fn ready(&mut self) {
        if self.autostart {
            self.start();
        }
    }

    fn exit_tree(&mut self) {
        if self.save_on_exit && self.recording.is_valid() {
            self.save(GString::new());
        }
    }
}

#[godot_api]
impl Maul3DRecorder {
    /// Where recorders save by default: `"user://maul3d_replays"`.
    #[func]
    pub fn get_replay_dir() -> GString {
        REPLAY_DIR.into()
    }

    /// Starts recording the space of the node's `World3D` (stopping a recording this node
    /// runs; an unsaved one is lost). False, with an error, when Maul3D is not the physics
    /// server, the node has no 3D world, or the space already records a journal.
    #[func]
    pub fn start(&mut self) -> bool {
        if self.recording.is_valid() {
            let _ = stop_journal(self.recording);
            self.recording = Rid::Invalid;
        }
        let Some(space) = self
            .base()
            .get_viewport()
            .and_then(|v| v.find_world_3d())
            .map(|w| w.get_space())
        else {
            godot_error!("Maul3DRecorder.start: the node has no 3D world to record");
            return false;
        };
        match start_journal(space, self.capacity_bytes) {
            Ok(()) => {
                self.recording = space;
                true
            }
            Err(e) => {
                godot_error!("Maul3DRecorder.start: {e}");
                false
            }
        }
    }

    /// Whether the node is recording.
    #[func]
    pub fn is_recording(&self) -> bool {
        self.recording.is_valid()
    }

    /// Ends the recording and writes it as a replay file: to `path` if given (a bare file
    /// name goes into `user://maul3d_replays/`), else as `file_name` says. Returns the
    /// path written, or "" (with an error) when nothing was recorded, the journal
    /// overflowed `capacity_bytes`, or the file cannot be written.
    #[func]
    pub fn save(&mut self, #[opt(default = "")] path: GString) -> GString {
        match self.save_to(path) {
            Ok(p) => p,
            Err(e) => {
                godot_error!("Maul3DRecorder.save: {e}");
                GString::new()
            }
        }
    }
}

impl Maul3DRecorder {
    fn save_to(&mut self, path: GString) -> Result<GString, String> {
        let space = std::mem::replace(&mut self.recording, Rid::Invalid);
        if !space.is_valid() {
            return Err("the node is not recording (start it first)".into());
        }
        stop_journal(space)?;
        let name = if !path.is_empty() {
            path.to_string()
        } else if !self.file_name.is_empty() {
            self.file_name.to_string()
        } else {
            self.default_name()
        };
        let full = if name.contains("://") || name.starts_with('/') {
            name
        } else {
            let err = DirAccess::make_dir_recursive_absolute(REPLAY_DIR);
            if err != godot::global::Error::OK {
                return Err(format!("cannot make {REPLAY_DIR} ({err:?})"));
            }
            format!("{REPLAY_DIR}/{name}")
        };
        let full = GString::from(full.as_str());
        save_replay(space, &full)?;
        Ok(full)
    }

    /// `<scene name>-<unix time>.m3replay`, with `-2`, `-3`, ... when that file exists.
    fn default_name(&self) -> String {
        let scene = self
            .base()
            .get_tree()
            .get_current_scene()
            .map(|s| s.get_name().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "replay".into());
        let time = Time::singleton().get_unix_time_from_system() as i64;
        let stem = format!("{scene}-{time}");
        let mut name = format!("{stem}.m3replay");
        let mut n = 2;
        while godot::classes::FileAccess::file_exists(&format!("{REPLAY_DIR}/{name}")) {
            name = format!("{stem}-{n}.m3replay");
            n += 1;
        }
        name
    }
}
