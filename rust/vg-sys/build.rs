// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Builds or finds the C library behind vg-sys.
//!
//! Default: compiles this repository's C sources with the `cc` crate, the same files and flags as
//! the CMake build. The file list is read from CMakeLists.txt (`VG_SOURCES`, with
//! `${VG_ARCH_SOURCES}` globbed from `src/<arch>/` as CMake does) and the per-file ISA options from
//! `src/aarch64/aarch64.cmake`, so the two builds cannot drift apart; the implementations choose
//! themselves at run time (per-function target attributes, CPU detection in src/impl.c), exactly as
//! in libvg.
//!
//! With the `system` feature or `VG_SYS_USE_PKG_CONFIG=1`: links the libvg that pkg-config finds.
//!
//! Either way the constants of `include/vg.h` (context sizes, error codes, version) are read from
//! the header that matches the library being linked and written to `$OUT_DIR/vg_h.rs`, so the Rust
//! types can never be smaller than what the C library writes into them.

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-env-changed=VG_SYS_USE_PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=VG_SOURCE_DIR");

    let header = if use_pkg_config() {
        link_system_library()
    } else {
        let root = source_dir();
        build_bundled(&root, &out_dir);
        root.join("include").join("vg.h")
    };
    write_header_constants(&header, &out_dir.join("vg_h.rs"));
}

fn use_pkg_config() -> bool {
    if env::var_os("CARGO_FEATURE_SYSTEM").is_some() {
        return true;
    }
    match env::var("VG_SYS_USE_PKG_CONFIG") {
        Ok(v) => !(v.is_empty() || v == "0"),
        Err(_) => false,
    }
}

/// The root of the vg checkout: VG_SOURCE_DIR, else two levels above this crate (rust/vg-sys), which
/// is where a path or git dependency finds it.
fn source_dir() -> PathBuf {
    let root = match env::var_os("VG_SOURCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
            manifest.join("..").join("..")
        }
    };
    if !root.join("include/vg.h").is_file() || !root.join("CMakeLists.txt").is_file() {
        panic!(
            "vg-sys: no vg source tree (include/vg.h, CMakeLists.txt, src/) at {}; set VG_SOURCE_DIR to the \
             root of a vg checkout, or use the `system` feature (VG_SYS_USE_PKG_CONFIG=1) to link an \
             installed libvg",
            root.display()
        );
    }
    root
}

// ------------------------------------------------------------------------------------------------
// The installed library

fn link_system_library() -> PathBuf {
    // The crate's types and functions are vg 0.2's: another minor release may change the API (before
    // 1.0 it may, docs/api-abi.md), so only 0.2.x is accepted, as find_package(vg 0.2) does.
    let major: u32 = env::var("CARGO_PKG_VERSION_MAJOR").unwrap().parse().unwrap();
    let minor: u32 = env::var("CARGO_PKG_VERSION_MINOR").unwrap().parse().unwrap();
    let lo = format!("{major}.{minor}.0");
    let hi = format!("{major}.{}.0", minor + 1);
    let lib = pkg_config::Config::new()
        .range_version(lo.as_str()..hi.as_str())
        .probe("vg")
        .unwrap_or_else(|e| panic!("vg-sys: pkg-config found no usable vg ({lo} <= version < {hi}): {e}"));
    // pkg-config leaves out the compiler's default directories (-I/usr/include), so look there too.
    let mut dirs = lib.include_paths.clone();
    dirs.push(PathBuf::from("/usr/local/include"));
    dirs.push(PathBuf::from("/usr/include"));
    for dir in &dirs {
        let h = dir.join("vg.h");
        if h.is_file() {
            println!("cargo:include={}", dir.display());
            println!("cargo:rerun-if-changed={}", h.display());
            return h;
        }
    }
    panic!("vg-sys: pkg-config found vg but no vg.h in {dirs:?}");
}

// ------------------------------------------------------------------------------------------------
// The bundled sources

/// CMake's name for the architecture folder (src/<arch>/), or None where vg has only the portable
/// implementation, as CMakeLists.txt decides from CMAKE_SYSTEM_PROCESSOR.
fn arch_folder() -> Option<&'static str> {
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let endian = env::var("CARGO_CFG_TARGET_ENDIAN").unwrap_or_default();
    match (arch.as_str(), endian.as_str()) {
        ("x86_64", _) => Some("x86_64"),
        ("aarch64", _) => Some("aarch64"),
        ("powerpc64", "little") => Some("ppc64le"),
        _ => None,
    }
}

/// VG_SOURCES from CMakeLists.txt, `${VG_ARCH_SOURCES}` expanded to src/<arch>/*.c in name order.
fn cmake_sources(root: &Path) -> Vec<PathBuf> {
    let cmake = read(&root.join("CMakeLists.txt"));
    let start = cmake.find("set(VG_SOURCES").unwrap_or_else(|| {
        panic!("vg-sys: no set(VG_SOURCES ...) in CMakeLists.txt; update vg-sys/build.rs")
    });
    let body = &cmake[start + "set(VG_SOURCES".len()..];
    let body = &body[..body.find(')').expect("vg-sys: set(VG_SOURCES not closed")];
    let mut sources = Vec::new();
    for item in body.split_whitespace() {
        if item == "${VG_ARCH_SOURCES}" {
            if let Some(arch) = arch_folder() {
                let mut files: Vec<PathBuf> = fs::read_dir(root.join("src").join(arch))
                    .unwrap_or_else(|e| panic!("vg-sys: src/{arch}: {e}"))
                    .map(|entry| entry.expect("vg-sys: reading src/<arch>").path())
                    .filter(|p| p.extension().map_or(false, |e| e == "c"))
                    .collect();
                files.sort();
                sources.extend(files);
            }
        } else if item.starts_with("src/") && item.ends_with(".c") {
            sources.push(root.join(item));
        } else {
            panic!(
                "vg-sys: unexpected entry {item:?} in CMakeLists.txt's VG_SOURCES; update vg-sys/build.rs"
            );
        }
    }
    sources
}

/// The per-file options of src/aarch64/aarch64.cmake: (file, options) pairs, applied under clang
/// only, as the file's `if(CMAKE_C_COMPILER_ID MATCHES "Clang")` says (gcc takes the ISA from each
/// function's target attribute; clang before 16 declares the intrinsics only for a file compiled
/// with the feature).
fn aarch64_file_options(root: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let text = read(&root.join("src/aarch64/aarch64.cmake"));
    if !text.contains("if(CMAKE_C_COMPILER_ID MATCHES \"Clang\")") {
        panic!(
            "vg-sys: src/aarch64/aarch64.cmake no longer says when its options apply; update vg-sys/build.rs"
        );
    }
    let mut result = Vec::new();
    for chunk in text.split("set_source_files_properties(").skip(1) {
        let body =
            &chunk[..chunk.find(')').expect("vg-sys: aarch64.cmake: unclosed set_source_files_properties")];
        let (files, props) = body
            .split_once("PROPERTIES")
            .expect("vg-sys: aarch64.cmake: set_source_files_properties without PROPERTIES");
        let options =
            props.trim().strip_prefix("COMPILE_OPTIONS").map(|s| s.trim().trim_matches('"')).expect(
                "vg-sys: aarch64.cmake: a property other than COMPILE_OPTIONS; update vg-sys/build.rs",
            );
        let options: Vec<String> = options.split(';').map(str::to_string).collect();
        for file in files.split_whitespace() {
            let rel = file
                .strip_prefix("${CMAKE_CURRENT_SOURCE_DIR}/")
                .unwrap_or_else(|| panic!("vg-sys: aarch64.cmake: unexpected path {file}"));
            result.push((root.join(rel), options.clone()));
        }
    }
    if result.is_empty() {
        panic!("vg-sys: no per-file options found in src/aarch64/aarch64.cmake; update vg-sys/build.rs");
    }
    result
}

fn build_bundled(root: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", root.join("CMakeLists.txt").display());
    println!("cargo:rerun-if-changed={}", root.join("src").display());
    println!("cargo:rerun-if-changed={}", root.join("include").display());
    println!("cargo:include={}", root.join("include").display());

    let mut build = cc::Build::new();
    build
        .include(root.join("include"))
        .include(root.join("src"))
        // CMake's C11 without extensions, hidden visibility for everything but the VG_API functions.
        .flag("-std=c11")
        .flag("-fvisibility=hidden")
        // What CMake's Release build uses, whatever the cargo profile: the constant-time checks and
        // the proofs judge the code as compiled this way, and the intrinsics-heavy kernels are slow
        // and little tested at -O0.
        .opt_level(3)
        .define("NDEBUG", None)
        // cc adds -fno-omit-frame-pointer in debug profiles; CMake's Release build does not.
        .force_frame_pointer(false)
        .pic(true)
        .warnings(true)
        .extra_warnings(true);
    if arch_folder() == Some("ppc64le") {
        // src/internal.h's ppc64le key set-up tail call (vg_ppc64le_aes_expand_key_tail) jumps to
        // the schedule from a function it assumes has no stack frame; with frame pointers GCC gives
        // it one, the jump leaves it unpopped and the first key set-up crashes. Appended after
        // any CFLAGS from the environment, so a distribution's -fno-omit-frame-pointer cannot
        // re-enable it here. (Reported upstream: the C build has the same exposure.)
        build.flag("-fomit-frame-pointer");
    }
    if has_secure_getenv(&build, out_dir) {
        build.define("VG_HAVE_SECURE_GETENV", "1");
    }

    let sources = cmake_sources(root);
    let per_file = if arch_folder() == Some("aarch64") && build.get_compiler().is_like_clang() {
        aarch64_file_options(root)
    } else {
        Vec::new()
    };
    for src in &sources {
        match per_file.iter().find(|(file, _)| same_file(file, src)) {
            // cc applies its flags to every file of a Build, so a file with options of its own is
            // compiled here and handed to the Build as an object: the archive stays one libvg.a.
            Some((_, options)) => {
                let obj = out_dir.join(src.file_name().unwrap()).with_extension("o");
                let mut cmd = build.get_compiler().to_command();
                cmd.args(options).arg("-c").arg(src).arg("-o").arg(&obj);
                run(&mut cmd, src);
                build.object(obj);
            }
            None => {
                build.file(src);
            }
        }
    }
    for (file, _) in &per_file {
        if !sources.iter().any(|s| same_file(s, file)) {
            panic!(
                "vg-sys: aarch64.cmake names {}, which is not a source; update vg-sys/build.rs",
                file.display()
            );
        }
    }
    build.compile("vg");
}

/// CMake's check_symbol_exists(secure_getenv "stdlib.h") with _GNU_SOURCE, as a compile check: the
/// declaration must be there (glibc has it; musl and others may not).
fn has_secure_getenv(build: &cc::Build, out_dir: &Path) -> bool {
    let src = out_dir.join("check_secure_getenv.c");
    fs::write(
        &src,
        "#define _GNU_SOURCE 1\n#include <stdlib.h>\nint vg_check(void) { return secure_getenv(\"VG_IMPL\") != 0; }\n",
    )
    .expect("vg-sys: writing the secure_getenv check");
    let mut cmd = build.get_compiler().to_command();
    cmd.arg("-Werror=implicit-function-declaration")
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(out_dir.join("check_secure_getenv.o"));
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn run(cmd: &mut Command, what: &Path) {
    // Kept in the build script's output (target/.../build/vg-sys-*/output), as cc's own commands are.
    println!("running: {cmd:?}");
    let status = cmd.status().unwrap_or_else(|e| panic!("vg-sys: running {cmd:?}: {e}"));
    if !status.success() {
        panic!("vg-sys: compiling {} failed ({status}): {cmd:?}", what.display());
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("vg-sys: reading {}: {e}", path.display()))
}

// ------------------------------------------------------------------------------------------------
// vg.h's constants

/// Every `#define VG_NAME value` of the header whose value is a number, a parenthesised negative
/// number, a string or another such name.
fn header_defines(text: &str) -> BTreeMap<String, String> {
    let mut raw = BTreeMap::new();
    for line in text.lines() {
        let rest = match line.trim_start().strip_prefix("#define ") {
            Some(r) => r.trim(),
            None => continue,
        };
        let (name, value) = match rest.split_once(char::is_whitespace) {
            Some((n, v)) => (n, v),
            None => continue,
        };
        if !name.starts_with("VG_") || name.contains('(') {
            continue;
        }
        let value = match value.find("/*") {
            Some(i) => &value[..i],
            None => value,
        }
        .trim();
        raw.insert(name.to_string(), value.to_string());
    }
    raw
}

fn resolve(defines: &BTreeMap<String, String>, name: &str) -> String {
    let mut value = defines
        .get(name)
        .unwrap_or_else(|| {
            panic!("vg-sys: vg.h does not define {name}; this vg-sys does not match the header")
        })
        .clone();
    // An alias (VG_AES_CCM_KEY_SIZE VG_AES_KEY_SIZE): follow it, a bounded number of times.
    for _ in 0..4 {
        match defines.get(&value) {
            Some(v) => value = v.clone(),
            None => break,
        }
    }
    value
}

fn write_header_constants(header: &Path, out: &Path) {
    let text = read(header);
    let defines = header_defines(&text);
    let mut rs = String::new();
    rs.push_str(&format!("// Generated by vg-sys/build.rs from {}.\n", header.display()));
    let sizes = [
        "VG_AES_BLOCK_SIZE",
        "VG_AES_KEY_SIZE",
        "VG_AES_CTR_STREAM_SIZE",
        "VG_AES_GCM_NONCE_SIZE",
        "VG_AES_GCM_TAG_SIZE",
        "VG_AES_GCM_KEY_SIZE",
        "VG_AES_GCM_STREAM_SIZE",
        "VG_AES_GCM_SIV_NONCE_SIZE",
        "VG_AES_GCM_SIV_TAG_SIZE",
        "VG_AES_GCM_SIV_KEY_SIZE",
        "VG_AES_CCM_NONCE_MIN_SIZE",
        "VG_AES_CCM_NONCE_MAX_SIZE",
        "VG_AES_CCM_TAG_MAX_SIZE",
        "VG_AES_CCM_KEY_SIZE",
    ];
    for name in sizes {
        let v: usize = resolve(&defines, name)
            .parse()
            .unwrap_or_else(|_| panic!("vg-sys: vg.h's {name} is not a number"));
        rs.push_str(&format!("pub const {name}: usize = {v};\n"));
    }
    let codes = [
        "VG_OK",
        "VG_ERR_KEY_LENGTH",
        "VG_ERR_NONCE_LENGTH",
        "VG_ERR_TAG_LENGTH",
        "VG_ERR_LENGTH",
        "VG_ERR_AUTH",
        "VG_ERR_ARG",
        "VG_ERR_UNSUPPORTED",
    ];
    for name in codes {
        let v: i32 = resolve(&defines, name)
            .trim_matches(|c| c == '(' || c == ')')
            .parse()
            .unwrap_or_else(|_| panic!("vg-sys: vg.h's {name} is not a number"));
        rs.push_str(&format!("pub const {name}: c_int = {v};\n"));
    }
    let mut version = Vec::new();
    for name in ["VG_VERSION_MAJOR", "VG_VERSION_MINOR", "VG_VERSION_PATCH"] {
        let v: u32 = resolve(&defines, name)
            .parse()
            .unwrap_or_else(|_| panic!("vg-sys: vg.h's {name} is not a number"));
        rs.push_str(&format!("pub const {name}: u32 = {v};\n"));
        version.push(v);
    }
    let version_string = resolve(&defines, "VG_VERSION_STRING");
    rs.push_str(&format!("pub const VG_VERSION_STRING: &str = {version_string};\n"));

    // The declarations in lib.rs are vg 0.2's (the crate's own version): a header of another minor
    // release may declare other functions, so it is refused here rather than mis-linked.
    let major: u32 = env::var("CARGO_PKG_VERSION_MAJOR").unwrap().parse().unwrap();
    let minor: u32 = env::var("CARGO_PKG_VERSION_MINOR").unwrap().parse().unwrap();
    if version[0] != major || version[1] != minor {
        panic!(
            "vg-sys {major}.{minor} declares vg {major}.{minor}'s API, but {} is vg {}.{}.{}",
            header.display(),
            version[0],
            version[1],
            version[2]
        );
    }
    fs::write(out, rs).unwrap_or_else(|e| panic!("vg-sys: writing {}: {e}", out.display()));
}
