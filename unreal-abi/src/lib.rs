//! # The m3 C ABI of Maul3D
//!
//! `libmaul3d.so` / `libmaul3d.a` export the engine to C and C++ hosts (the Unreal plugin
//! links them) as `m3*` functions; `include/maul3d.h` is generated from this crate by
//! cbindgen and `include/maul3d.hpp` is a header-only C++17 layer over it.
//!
//! The layer translates; it does not simulate. What it adds is what a C boundary needs:
//!
//! - **Ids as values.** `m3WorldId` is a slot of a fixed table of worlds (index and
//!   generation); every object id (`m3BodyId`, `m3ShapeId`, `m3HullId`, `m3MeshId`,
//!   `m3JointId`, `m3CharacterId`, `m3VehicleId`, `m3WaterVolumeId`, `m3SoftBodyId`) carries its index and generation and the id of its world, so a stale or
//!   foreign id is refused, never followed.
//! - **Replay players.** `m3ReplayPlayer*` (`m3ReplayPlayer_Open`) is the one object held
//!   by pointer: the core's replay player, whose world is its own (not in the table, so no
//!   world call reaches it); it has a state word like a world's (busy, poison).
//! - **Results.** Every call that can be refused returns an [`m3Result`]; the reason, with
//!   the value and the bound it broke, is in [`m3GetLastErrorMessage`] on the calling
//!   thread. A refusal changes nothing. Refusals for programmer error (everything but
//!   damaged or foreign-version data) count in the world's misuse counter.
//! - **Busy, never a deadlock.** Each world has an atomic state word (idle, n readers, or
//!   one writer). Calls that change a world take it as writer, reads as reader; a call
//!   from host code the world is running (allocator, task hooks, pre-solve, debug draw)
//!   finds it taken and is refused with `m3_errorBusy`.
//! - **No panic crosses the boundary.** Every export catches; a panic inside a world's call
//!   poisons that world (every later call on it gets `m3_errorState`; destroying it still
//!   frees it), since a half-changed world cannot keep the promise that a refused call
//!   changes nothing.
//! - **The floating-point environment.** Every export is an `#[inline(never)]` shim that
//!   saves the caller's MXCSR / FPCR (and on x86 the x87 control word), runs in the
//!   library's setting and restores the caller's on return (`maul3d::fp`); host callbacks
//!   run in the host's setting, except the pre-solve callback, whose answer decides
//!   contacts.
//! - **A version handshake.** `maul3d.h` defines `M3_ABI_VERSION`; its inline
//!   `m3World_Create` passes it to the exported `m3World_CreateVersioned`, which refuses a
//!   header of another version with `m3_errorVersion`.
//!
//! **Safety.** Every export taking pointers says in its `# Safety` section (copied into
//! `maul3d.h`) what each must point to and for how long. Throughout: a pointer to a value
//! is aligned for its type; a `bool` the host passes, alone or in a struct, is 0 or 1 (as
//! C's `bool` always is); a struct passed in has every field set (start from its
//! `m3Default*` function); a needed pointer that is null is refused with
//! `m3_errorArgument`, never followed.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#![warn(missing_docs)]

mod body;
mod boundary;
mod character;
mod contact_data;
mod content;
mod events;
mod grow;
mod hooks;
mod joint;
mod journal;
mod math;
mod query;
mod replay;
mod shape;
mod soft;
mod types;
mod unreal;
mod vehicle;
mod water;
mod world;

pub use body::*;
pub use boundary::{m3GetLastErrorMessage, m3World_GetMisuseCount};
pub use character::*;
pub use contact_data::*;
pub use content::*;
pub use events::*;
pub use hooks::*;
pub use joint::*;
pub use journal::*;
pub use math::*;
pub use query::*;
pub use replay::*;
pub use shape::*;
pub use soft::*;
pub use types::*;
pub use unreal::*;
pub use vehicle::*;
pub use water::*;
pub use world::*;

/// Major version of the ABI: the layout of every type and the meaning of every call.
pub const M3_ABI_VERSION_MAJOR: u32 = 0;
/// Minor version of the ABI: a header of another minor version is refused.
pub const M3_ABI_VERSION_MINOR: u32 = 9;
/// The ABI version a header was generated with; `m3World_Create` passes it to the library.
pub const M3_ABI_VERSION: u32 = (M3_ABI_VERSION_MAJOR << 16) | M3_ABI_VERSION_MINOR;

/// The library's version.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct m3Version {
    /// Major version.
    pub major: i32,
    /// Minor version.
    pub minor: i32,
    /// Patch version.
    pub patch: i32,
}

/// The library's version (the crate's).
#[unsafe(no_mangle)]
pub extern "C" fn m3GetVersion() -> m3Version {
    boundary::value(
        "m3GetVersion",
        m3Version {
            major: 0,
            minor: 0,
            patch: 0,
        },
        || {
            let n = |s: &str| s.parse::<i32>().unwrap_or(0);
            m3Version {
                major: n(env!("CARGO_PKG_VERSION_MAJOR")),
                minor: n(env!("CARGO_PKG_VERSION_MINOR")),
                patch: n(env!("CARGO_PKG_VERSION_PATCH")),
            }
        },
    )
}

/// The ABI version the library was built with (`M3_ABI_VERSION` of its header).
#[unsafe(no_mangle)]
pub extern "C" fn m3GetAbiVersion() -> u32 {
    boundary::value("m3GetAbiVersion", 0, || M3_ABI_VERSION)
}

#[cfg(test)]
mod header {
    /// Generates `include/maul3d.h` from the crate's exports.
    fn generate() -> String {
        let dir = env!("CARGO_MANIFEST_DIR");
        let config = cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).unwrap();
        let mut out = Vec::new();
        cbindgen::Builder::new()
            .with_crate(dir)
            .with_config(config)
            .generate()
            .unwrap()
            .write(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_committed_header_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/maul3d.h");
        let fresh = generate();
        if std::env::var_os("M3_WRITE_HEADER").is_some() {
            std::fs::write(path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == fresh,
            "include/maul3d.h is stale: regenerate it with \
             M3_WRITE_HEADER=1 cargo test -p maul3d-abi the_committed_header_is_current"
        );
    }

    /// Each `unsafe extern "C"` export's declaration in the header comes after its
    /// comment's `# Safety` notes, so a C or C++ host reads the same contract.
    #[test]
    fn the_header_carries_every_unsafe_exports_safety_notes() {
        let h = generate();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let src = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            for (at, _) in src.match_indices("pub unsafe extern \"C\" fn ") {
                let name: String = src[at + 25..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let decl = h
                    .find(&format!(" {name}("))
                    .unwrap_or_else(|| panic!("{name} is not in the header"));
                // The comment block right above the declaration.
                let comment_start = h[..decl].rfind(";\n").unwrap_or(0);
                assert!(
                    h[comment_start..decl].contains("# Safety"),
                    "{name}'s declaration in the header has no # Safety notes"
                );
                checked += 1;
            }
        }
        assert!(checked > 90, "found only {checked} unsafe exports");
    }

    #[test]
    fn the_header_holds_no_float_math() {
        let h = generate();
        assert!(h.contains("#define M3_ABI_VERSION"));
        // Inline code in the header is only the versioned create's forwarding.
        assert_eq!(h.matches("static inline").count(), 1);
    }
}

#[cfg(test)]
mod every_export {
    /// Every `extern "C"` function of the crate runs through the boundary (`value`, `api`,
    /// `api_on`, or a helper that calls them), so none can let a panic out or compute in
    /// the caller's floating-point mode. A new export that forgets fails here.
    #[test]
    fn goes_through_the_boundary() {
        let helpers = [
            "value(",
            "api(",
            "api_on(",
            "set(",
            "get(",
            "copy(",
            "create(",
            "create_from_content(",
            "overlap(",
            "geometry(",
            "test_motion(",
            "cast_closest(",
            "cast_all(",
        ];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let src = std::fs::read_to_string(&path).unwrap();
            for (at, _) in src.match_indices("extern \"C\" fn m3") {
                let name: String = src[at + 14..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let body_start = src[at..].find('{').unwrap() + at;
                let body_end = src[body_start..].find("\n}\n").unwrap() + body_start;
                let body = &src[body_start..body_end];
                assert!(
                    helpers.iter().any(|h| body.contains(h)),
                    "{name} in {} does not go through the boundary",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "found only {checked} exports");
    }
}
