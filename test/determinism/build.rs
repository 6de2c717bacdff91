//! Builds the C floating-point harness, except for wasm32 (no FP environment, no C here).
fn main() {
    println!("cargo:rerun-if-changed=c/fp_harness.c");
    println!("cargo::rustc-check-cfg=cfg(fp_harness)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "wasm32" {
        return;
    }
    println!("cargo:rustc-cfg=fp_harness");
    cc::Build::new()
        .file("c/fp_harness.c")
        .flag_if_supported("-std=c11")
        .flag_if_supported("-fno-fast-math")
        .compile("m3fp_harness");
}
