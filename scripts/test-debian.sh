#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# scripts/test-debian.sh (make test-debian; the last step of make check): vg's Debian packages from
# build to purge, as root, the way an operator uses them (docs/packaging.md, docs/install.md).
#
#  1. version: debian/changelog's upstream version must be include/vg.h's VG_VERSION_STRING;
#  2. build: the working tree (git's tracked and untracked, not ignored, files) is copied to $WORK
#     and built there with dpkg-buildpackage -us -uc -b (parallel=$JOBS, no -dbgsym packages, a
#     plain Debian PATH), so the checkout gets no file and the .debs land in $WORK;
#  3. lintian: no error and no warning (each override in debian/*.lintian-overrides says why);
#  4. install: dpkg -i, then apt-get -f install if they need more; installing must change nothing:
#     the default OpenSSL configuration still loads default alone, /etc/ssl/openssl.cnf is untouched;
#  5. use, from the installed files only (a clean environment): a C program built with pkg-config
#     and one with CMake's find_package(vg), both checked on a GCM vector; /usr/bin/python3 sealing
#     and opening with vg.aead; `openssl list -providers` and an `openssl enc -aes-256-ctr` round
#     trip with the shipped vg-provider.cnf through OPENSSL_CONF, equal to OpenSSL's own output;
#     vg-provider-check; vg-speed;
#  6. removal: openssl-provider-vg removed while configurations still name it (OPENSSL_CONF, an
#     .include as /etc/ssl/openssl.cnf would have it, a copy of the snippet): OpenSSL carries on with
#     its default provider, and vg-provider-check says why vg is not there;
#  7. purge: every package purged; then every path the packages installed is gone, no file named
#     like vg's is left in /usr, /etc, /var/lib/dpkg/info or /opt that was not there before, and the
#     system's package set is exactly what it was before.
#
# It refuses to start if a vg package is installed or a file it would install exists already (it
# would otherwise overwrite and then delete them). Whatever happens, the packages it installed are
# purged on exit. $WORK (default /tmp/vg-deb) is removed after a pass and kept after a failure.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${VG_DEB_WORK:-/tmp/vg-deb}
JOBS=${JOBS:-2}
PACKAGES=(libvg1 libvg-dev openssl-provider-vg python3-vg vg-tools)
SNIPPET=/usr/share/vg/vg-provider.cnf
CLEAN_PATH=/usr/sbin:/usr/bin:/sbin:/bin

step() { printf '\n== test-debian [%3ds] %s\n' "$SECONDS" "$*"; }
fail() { printf 'test-debian: FAIL: %s\n' "$*" >&2; exit 1; }
# run COMMAND... in a clean environment (Debian's PATH, no PYTHONPATH, OPENSSL_CONF, PKG_CONFIG_PATH,
# CMAKE_PREFIX_PATH, LD_LIBRARY_PATH or VG_IMPL from the caller), so only installed files are used
clean_env() { env -i PATH="$CLEAN_PATH" HOME="$WORK/home" LANG=C.UTF-8 "$@"; }
package_set() { dpkg-query -W -f='${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' | sort; }
# files and directories named like vg's, where packages put them (the ossl-modules directory is
# under /usr/lib); compared before install and after purge
vg_named() {
    find /usr /etc /opt /var/lib/dpkg/info -xdev \( -name 'libvg.*' -o -name 'libvg1*' -o -name 'libvg-dev*' \
        -o -name 'vg.h' -o -name 'vg.so' -o -name 'vg.pc' -o -name 'vgConfig*' -o -name 'vg*Targets*.cmake' \
        -o -name 'vg-provider*' -o -name 'vg-speed*' -o -name 'vg-tools*' -o -name 'openssl-provider-vg*' \
        -o -name 'python3-vg*' -o -name 'vg-[0-9]*' -o -name '_vg.*' -o \( -name vg -type d \) \) \
        -print 2>/dev/null | sort
}

[ "$(id -u)" -eq 0 ] || fail "run as root: it installs and purges Debian packages"
for tool in dpkg-buildpackage dh lintian pybuild; do
    command -v "$tool" > /dev/null || fail "$tool is missing: run scripts/install-deps.sh"
done
# dpkg's status of a package: "ii " installed, "rc " removed with its configuration, "un " unknown
status_of() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null || echo 'un '; }
for p in "${PACKAGES[@]}"; do
    [ "$(status_of "$p")" = "un " ] ||
        fail "$p is installed already (dpkg -l $p): purge it first; this test installs and purges its own"
done

# ---------------------------------------------------------------------------------------------------
step "1. version"
vg_version=$(sed -n 's/^#define VG_VERSION_STRING "\(.*\)"$/\1/p' "$ROOT/include/vg.h")
deb_version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
deb_upstream=${deb_version%-*}
deb_upstream=${deb_upstream#*:}
[ -n "$vg_version" ] || fail "no VG_VERSION_STRING in include/vg.h"
[ "$deb_upstream" = "$vg_version" ] ||
    fail "debian/changelog's version is $deb_version, include/vg.h's is $vg_version: add a changelog entry (dch -v $vg_version-1)"
echo "include/vg.h $vg_version, debian/changelog $deb_version"

# ---------------------------------------------------------------------------------------------------
step "2. build (dpkg-buildpackage -us -uc -b in $WORK)"
rm -rf "$WORK"
src="$WORK/vg-$vg_version"
mkdir -p "$src" "$WORK/home" "$WORK/use"
if git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    # tracked files that exist, plus untracked files that are not ignored (a new file not added yet)
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -C "$src" -xf -
else
    tar -C "$ROOT" --exclude='./build' --exclude='./build-*' --exclude='./.git' -cf - . | tar -C "$src" -xf -
fi

keep_work=1
installed_by_us=0
before_packages="$WORK/packages.before"
package_set > "$before_packages"
# what apt-get -f install brings in for vg's packages, to purge with them
: > "$WORK/apt-added"
cleanup() {
    status=$?
    set +e
    if [ "$installed_by_us" = 1 ]; then
        to_purge=()
        for p in "${PACKAGES[@]}"; do
            [ "$(status_of "$p")" = "un " ] || to_purge+=("$p")
        done
        if [ ${#to_purge[@]} -gt 0 ]; then
            echo "test-debian: purging ${to_purge[*]} (left by a failed step)"
            dpkg --purge "${to_purge[@]}" > /dev/null
        fi
        if [ -s "$WORK/apt-added" ]; then
            echo "test-debian: purging what apt-get -f install brought in: $(tr '\n' ' ' < "$WORK/apt-added")"
            xargs dpkg --purge < "$WORK/apt-added" > /dev/null
        fi
    fi
    if [ "$status" -eq 0 ] && [ "$keep_work" = 0 ]; then
        rm -rf "$WORK"
    elif [ "$status" -ne 0 ]; then
        echo "test-debian: failed; the build and its logs are in $WORK" >&2
    fi
    exit "$status"
}
trap cleanup EXIT

if ! (cd "$src" && clean_env DEB_BUILD_OPTIONS="parallel=$JOBS noautodbgsym" \
        nice -n 10 dpkg-buildpackage -us -uc -b > "$WORK/build.log" 2>&1); then
    tail -n 60 "$WORK/build.log"
    fail "dpkg-buildpackage failed (the whole log: $WORK/build.log)"
fi
grep -E '^(dh_auto_test|vector files through|\(every correctness|Ran |OK$)' "$WORK/build.log" || true
debs=()
for p in "${PACKAGES[@]}"; do
    deb=$(ls "$WORK/${p}_${deb_version#*:}_"*.deb 2> /dev/null || true)
    [ -n "$deb" ] || fail "no package $p was built"
    debs+=("$deb")
done
(cd "$WORK" && ls -l ./*.deb)

# ---------------------------------------------------------------------------------------------------
step "3. lintian"
changes=$(ls "$WORK"/vg_*.changes)
# every tag shown, overridden ones too (O:, each after its reason); the verdict is read from the output,
# since --show-overrides makes --fail-on count overridden tags as well
clean_env nice -n 10 lintian -I --pedantic --show-overrides --fail-on none "$changes" > "$WORK/lintian.txt" 2>&1 ||
    { cat "$WORK/lintian.txt"; fail "lintian did not run"; }
grep -v '^running with root privileges' "$WORK/lintian.txt" || true
if grep -q '^[EW]: ' "$WORK/lintian.txt"; then
    fail "lintian reports errors or warnings (E:, W: above)"
fi
echo "lintian: no error, no warning"

# ---------------------------------------------------------------------------------------------------
step "4. install (dpkg -i; apt-get -f install for their dependencies)"
# what the packages will install, and what of it exists now (only shared directories may)
: > "$WORK/paths"
for deb in "${debs[@]}"; do
    dpkg-deb --fsys-tarfile "$deb" | tar -tf - | sed 's|^\./|/|; s|/$||' | grep -v '^\.\?$' >> "$WORK/paths"
done
sort -u -o "$WORK/paths" "$WORK/paths"
: > "$WORK/dirs.before"
while IFS= read -r path; do
    if [ -d "$path" ] && [ ! -L "$path" ]; then
        echo "$path" >> "$WORK/dirs.before"
    elif [ -e "$path" ] || [ -L "$path" ]; then
        fail "$path exists already (from an install by hand?): this test would overwrite it, then delete it"
    fi
done < "$WORK/paths"
vg_named > "$WORK/vg-named.before"
ldconfig -p | grep -F libvg > "$WORK/ldconfig.before" || true
openssl_cnf_sum=$(md5sum < /etc/ssl/openssl.cnf)
clean_env openssl list -providers > "$WORK/providers.before" 2>&1

installed_by_us=1
if ! dpkg -i "${debs[@]}" > "$WORK/dpkg-i.log" 2>&1; then
    echo "dpkg -i left dependencies to install:"
    grep -E 'depends on|not installed' "$WORK/dpkg-i.log" || cat "$WORK/dpkg-i.log"
    package_set > "$WORK/packages.pre-apt"
    DEBIAN_FRONTEND=noninteractive apt-get -f install -y -q
    comm -13 <(awk '$3 == "ii" { print $1 }' "$WORK/packages.pre-apt" | sort -u) \
             <(package_set | awk '$3 == "ii" { print $1 }' | sort -u) |
        grep -v -x -F "$(printf '%s\n' "${PACKAGES[@]/%/:$(dpkg --print-architecture)}")" > "$WORK/apt-added" || true
    echo "apt-get -f install added: $(tr '\n' ' ' < "$WORK/apt-added")"
fi
for p in "${PACKAGES[@]}"; do
    [ "$(status_of "$p")" = "ii " ] || fail "$p is not installed ($(status_of "$p"))"
done
dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}  ${Depends}\n' "${PACKAGES[@]}"
for p in "${PACKAGES[@]}"; do
    dpkg -L "$p" | grep -v '^/\.$' > "$WORK/dpkg-L.$p"
    [ -z "$(dpkg-query -W -f='${Conffiles}' "$p")" ] || fail "$p has conffiles: nothing of vg belongs in /etc"
done

echo "-- installing changed no program's behaviour:"
[ "$(md5sum < /etc/ssl/openssl.cnf)" = "$openssl_cnf_sum" ] || fail "/etc/ssl/openssl.cnf changed"
clean_env openssl list -providers > "$WORK/providers.after" 2>&1
diff "$WORK/providers.before" "$WORK/providers.after" || fail "openssl list -providers changed"
echo "   /etc/ssl/openssl.cnf unchanged; openssl list -providers (default configuration) unchanged:"
sed 's/^/   /' "$WORK/providers.after"
set +e
clean_env vg-provider-check > "$WORK/check.default" 2>&1
rc=$?
set -e
{ [ "$rc" -eq 1 ] && grep -q 'result: vg is NOT loaded' "$WORK/check.default"; } ||
    { cat "$WORK/check.default"; fail "vg-provider-check with the default configuration: exit $rc, want 1 (vg not loaded)"; }
echo "   vg-provider-check with the default configuration: exit 1,"
sed -n '/^result/,$p' "$WORK/check.default" | sed 's/^/     /'

# ---------------------------------------------------------------------------------------------------
step "5. use the installed packages"
use="$WORK/use"
# AES-256-GCM, all-zero key and 12-byte IV, one all-zero block (test case 14 of McGrew and Viega's GCM
# specification), then the same with a flipped tag bit, which must be refused with a zeroed output
cat > "$use/gcm.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <vg.h>

int main(void)
{
    static const uint8_t want_ct[16] = { 0xce, 0xa7, 0x40, 0x3d, 0x4d, 0x60, 0x6b, 0x6e,
                                         0x07, 0x4e, 0xc5, 0xd3, 0xba, 0xf3, 0x9d, 0x18 };
    static const uint8_t want_tag[16] = { 0xd0, 0xd1, 0xc8, 0xa7, 0x99, 0x99, 0x6b, 0xf0,
                                          0x26, 0x5b, 0x98, 0xb5, 0xd4, 0x8a, 0xb9, 0x19 };
    uint8_t key_bytes[32] = { 0 }, nonce[12] = { 0 }, pt[16] = { 0 }, ct[16], tag[16], out[16];
    vg_aes_gcm_key key;

    if (strcmp(vg_version(), VG_VERSION_STRING) != 0) {
        printf("FAIL: header %s, library %s\n", VG_VERSION_STRING, vg_version());
        return 1;
    }
    if (vg_aes_gcm_init(&key, key_bytes, sizeof key_bytes) != VG_OK ||
        vg_aes_gcm_seal(&key, nonce, sizeof nonce, NULL, 0, pt, sizeof pt, ct, tag, sizeof tag) != VG_OK ||
        memcmp(ct, want_ct, 16) != 0 || memcmp(tag, want_tag, 16) != 0) {
        printf("FAIL: AES-256-GCM vector\n");
        return 1;
    }
    if (vg_aes_gcm_open(&key, nonce, sizeof nonce, NULL, 0, ct, sizeof ct, tag, sizeof tag, out) != VG_OK ||
        memcmp(out, pt, 16) != 0) {
        printf("FAIL: open\n");
        return 1;
    }
    tag[15] ^= 1;
    memset(out, 0xaa, sizeof out);
    if (vg_aes_gcm_open(&key, nonce, sizeof nonce, NULL, 0, ct, sizeof ct, tag, sizeof tag, out) != VG_ERR_AUTH ||
        memcmp(out, pt, 16) != 0) {
        printf("FAIL: a forged tag was not refused with a zeroed output\n");
        return 1;
    }
    vg_aes_gcm_key_wipe(&key);
    printf("vg %s (%s): AES-256-GCM vector, open, forgery refused: ok\n", vg_version(), vg_impl_name());
    return 0;
}
EOF
multiarch=$(dpkg-architecture -q DEB_HOST_MULTIARCH)

echo "-- C, pkg-config vg"
[ "$(clean_env pkg-config --modversion vg)" = "$vg_version" ] || fail "pkg-config --modversion vg is not $vg_version"
echo "   pkg-config --cflags --libs vg: $(clean_env pkg-config --cflags --libs vg)"
# shellcheck disable=SC2046 # pkg-config's words
clean_env cc -o "$use/gcm-pkgconfig" "$use/gcm.c" $(clean_env pkg-config --cflags --libs vg)
# (ldd's output is read whole first: grep -q stopping early would make ldd fail on SIGPIPE, pipefail)
ldd_of() { clean_env ldd "$1" > "$use/ldd.txt" && cat "$use/ldd.txt"; }
ldd_of "$use/gcm-pkgconfig" | grep -E "libvg.so.1 => (/usr)?/lib/$multiarch/libvg.so.1" > /dev/null ||
    fail "gcm-pkgconfig does not load /usr/lib/$multiarch/libvg.so.1"
clean_env "$use/gcm-pkgconfig" | sed 's/^/   /'

echo "-- C, CMake find_package(vg)"
mkdir -p "$use/cmake"
cat > "$use/cmake/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(use_vg LANGUAGES C)
find_package(vg REQUIRED)
message(STATUS "vg ${vg_VERSION} from ${vg_DIR}")
add_executable(gcm-shared ../gcm.c)
target_link_libraries(gcm-shared PRIVATE vg::vg)
add_executable(gcm-static ../gcm.c)
target_link_libraries(gcm-static PRIVATE vg::vg_static)
EOF
clean_env cmake -S "$use/cmake" -B "$use/cmake/build" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
    > "$use/cmake.log" 2>&1 || { cat "$use/cmake.log"; fail "cmake could not configure a find_package(vg) project"; }
grep -q -- "-- vg $vg_version from /usr/lib/$multiarch/cmake/vg" "$use/cmake.log" ||
    { cat "$use/cmake.log"; fail "find_package(vg) did not find vg $vg_version in /usr/lib/$multiarch/cmake/vg"; }
grep -- "-- vg $vg_version" "$use/cmake.log" | sed 's/^/   /'
clean_env cmake --build "$use/cmake/build" > "$use/cmake-build.log" 2>&1 ||
    { cat "$use/cmake-build.log"; fail "the find_package(vg) project did not build"; }
ldd_of "$use/cmake/build/gcm-shared" | grep -E "libvg.so.1 => (/usr)?/lib/$multiarch/libvg.so.1" > /dev/null ||
    fail "gcm-shared does not load /usr/lib/$multiarch/libvg.so.1"
if ldd_of "$use/cmake/build/gcm-static" | grep libvg > /dev/null; then fail "gcm-static loads libvg.so"; fi
clean_env "$use/cmake/build/gcm-shared" | sed 's/^/   vg::vg        /'
clean_env "$use/cmake/build/gcm-static" | sed 's/^/   vg::vg_static /'

echo "-- Python: /usr/bin/python3 -I (isolated: no PYTHONPATH, no user site, not the current directory)"
(cd "$use" && clean_env /usr/bin/python3 -I -c '
import vg, vg.aead
from vg.aead import AESGCM, AESGCMSIV, AESCCM
assert vg.__file__.startswith("/usr/lib/python3/dist-packages/vg/"), vg.__file__
assert vg.__version__ == "'"$vg_version"'", vg.__version__
sealed = AESGCM(bytes(32)).encrypt(bytes(12), bytes(16), None)
assert sealed.hex() == "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919", sealed.hex()
for cls, nonce in ((AESGCM, 12), (AESGCMSIV, 12), (AESCCM, 13)):
    key = cls.generate_key(256)
    n = bytes(range(nonce))
    ct = cls(key).encrypt(n, b"attack at dawn", b"to: HQ")
    assert cls(key).decrypt(n, ct, b"to: HQ") == b"attack at dawn"
    try:
        cls(key).decrypt(n, ct[:-1] + bytes([ct[-1] ^ 1]), b"to: HQ")
        raise SystemExit("FAIL: %s opened a forged tag" % cls.__name__)
    except vg.aead.InvalidTag:
        pass
print("vg %s from %s, implementation %s: AESGCM vector; AESGCM, AESGCMSIV, AESCCM seal, open, forgery refused: ok"
      % (vg.__version__, vg.__file__, vg.implementation()))
') | sed 's/^/   /'

echo "-- OpenSSL with OPENSSL_CONF=$SNIPPET"
[ -f "$SNIPPET" ] || fail "$SNIPPET is not installed"
grep -q "^module = /usr/lib/$multiarch/ossl-modules/vg.so$" "$SNIPPET" || fail "$SNIPPET does not name /usr/lib/$multiarch/ossl-modules/vg.so"
clean_env OPENSSL_CONF="$SNIPPET" openssl list -providers > "$use/providers.vg" 2>&1 ||
    { cat "$use/providers.vg"; fail "openssl list -providers with $SNIPPET failed"; }
sed 's/^/   /' "$use/providers.vg"
grep -qx '  vg' "$use/providers.vg" || fail "openssl list -providers does not list vg"
head -c 1000003 /dev/urandom > "$use/plain"
key=603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4
iv=f0f1f2f3f4f5f6f7f8f9fafbfffffff0 # the low 32 bits wrap after 16 blocks: vg.so's 128-bit carry runs
clean_env OPENSSL_CONF="$SNIPPET" openssl enc -aes-256-ctr -propquery provider=vg -K "$key" -iv "$iv" \
    -in "$use/plain" -out "$use/ct.vg"
clean_env OPENSSL_CONF="$SNIPPET" openssl enc -d -aes-256-ctr -K "$key" -iv "$iv" -in "$use/ct.vg" -out "$use/plain.vg"
clean_env OPENSSL_CONF=/dev/null openssl enc -aes-256-ctr -K "$key" -iv "$iv" -in "$use/plain" -out "$use/ct.default"
cmp "$use/plain" "$use/plain.vg" || fail "openssl enc -aes-256-ctr through vg: the round trip changed the data"
cmp "$use/ct.vg" "$use/ct.default" || fail "openssl enc -aes-256-ctr: vg's ciphertext differs from OpenSSL's default provider's"
echo "   openssl enc -aes-256-ctr, 1000003 bytes: encrypted by vg (-propquery provider=vg), decrypted with the"
echo "   snippet's ?provider=vg: round trip ok, ciphertext equal to OpenSSL's default provider's"

echo "-- vg-provider-check with OPENSSL_CONF=$SNIPPET"
clean_env OPENSSL_CONF="$SNIPPET" vg-provider-check > "$use/check.vg" 2>&1 ||
    { cat "$use/check.vg"; fail "vg-provider-check with $SNIPPET: not exit 0"; }
sed 's/^/   /' "$use/check.vg"

echo "-- vg-speed"
clean_env vg-speed --rounds 1 --ms 1 --sizes 16,1024 --filter =aes256-gcm-seal,=aes256-ctr > "$use/speed" 2>&1 ||
    { cat "$use/speed"; fail "vg-speed failed"; }
tail -n 1 "$use/speed" | sed 's/^/   /'

# ---------------------------------------------------------------------------------------------------
step "6. openssl-provider-vg removed while configurations still name it"
# the system-wide route, through a copy of /etc/ssl/openssl.cnf (the real one is not touched)
cp /etc/ssl/openssl.cnf "$use/system.cnf"
echo ".include $SNIPPET" >> "$use/system.cnf"
cp "$SNIPPET" "$use/copied.cnf"
clean_env OPENSSL_CONF="$use/system.cnf" vg-provider-check > "$use/check.system" 2>&1 ||
    { cat "$use/check.system"; fail "vg-provider-check with openssl.cnf + .include $SNIPPET: not exit 0"; }
echo "   before: openssl.cnf + '.include $SNIPPET': $(grep '^result' "$use/check.system")"
dpkg -r openssl-provider-vg > /dev/null
{ [ ! -e "$SNIPPET" ] && [ ! -e "/usr/lib/$multiarch/ossl-modules/vg.so" ]; } || fail "dpkg -r openssl-provider-vg left its files"
# expect_gone CONF WANT: OpenSSL starts and works with default; vg-provider-check exits 1 saying WANT
expect_gone() {
    local conf=$1 want=$2 rc
    clean_env OPENSSL_CONF="$conf" openssl list -providers > "$use/gone.list" 2>&1 ||
        { cat "$use/gone.list"; fail "openssl list -providers fails with OPENSSL_CONF=$conf"; }
    { grep -qx '  default' "$use/gone.list" && ! grep -qx '  vg' "$use/gone.list"; } ||
        { cat "$use/gone.list"; fail "OPENSSL_CONF=$conf: want default alone"; }
    echo hello | clean_env OPENSSL_CONF="$conf" openssl enc -aes-256-ctr -K "$key" -iv "$iv" > /dev/null ||
        fail "openssl enc fails with OPENSSL_CONF=$conf"
    clean_env OPENSSL_CONF="$conf" /usr/bin/python3 -I -c 'import ssl; ssl.create_default_context()' ||
        fail "Python's ssl fails with OPENSSL_CONF=$conf"
    set +e
    clean_env OPENSSL_CONF="$conf" vg-provider-check > "$use/gone.check" 2>&1
    rc=$?
    set -e
    { [ "$rc" -eq 1 ] && grep -qF -- "$want" "$use/gone.check"; } ||
        { cat "$use/gone.check"; fail "vg-provider-check with OPENSSL_CONF=$conf: exit $rc (want 1) or no '$want'"; }
    echo "   openssl list -providers: exit 0, $(grep -c '^  [a-z]' "$use/gone.list") provider (default); openssl enc and Python's ssl work"
    echo "   vg-provider-check: exit 1:"
    sed -n '/^result/,$p' "$use/gone.check" | sed 's/^/     /'
}
echo "-- per service: OPENSSL_CONF=$SNIPPET (gone)"
expect_gone "$SNIPPET" "$SNIPPET does not exist (was vg uninstalled?)"
echo "-- system-wide: openssl.cnf + '.include $SNIPPET' (gone)"
expect_gone "$use/system.cnf" "includes $SNIPPET: No such file or directory (was vg uninstalled?)"
echo "-- a copy of the snippet naming the module (gone)"
expect_gone "$use/copied.cnf" "module /usr/lib/$multiarch/ossl-modules/vg.so: No such file or directory"

# ---------------------------------------------------------------------------------------------------
step "7. purge"
to_purge=()
for p in "${PACKAGES[@]}"; do
    [ "$(status_of "$p")" = "un " ] || to_purge+=("$p")
done
echo "dpkg --purge ${to_purge[*]}"
dpkg --purge "${to_purge[@]}" > "$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "dpkg --purge failed"; }
grep -v '^(Reading database' "$WORK/purge.log" | sed 's/^/   /'
for p in "${PACKAGES[@]}"; do
    [ "$(status_of "$p")" = "un " ] || fail "$p is still known to dpkg ($(status_of "$p"))"
done
left=0
while IFS= read -r path; do
    [ -e "$path" ] || [ -L "$path" ] || continue
    if [ -d "$path" ] && [ ! -L "$path" ] && grep -qxF "$path" "$WORK/dirs.before"; then continue; fi
    echo "left on disk: $path"
    left=1
done < <(sort -u "$WORK/paths" "$WORK"/dpkg-L.*)
[ "$left" = 0 ] || fail "the purge left files of the packages"
vg_named > "$WORK/vg-named.after"
diff "$WORK/vg-named.before" "$WORK/vg-named.after" || fail "files named like vg's appeared (above, '>')"
ldconfig -p | grep -F libvg > "$WORK/ldconfig.after" || true
diff "$WORK/ldconfig.before" "$WORK/ldconfig.after" || fail "ldconfig's cache still has libvg"
[ "$(md5sum < /etc/ssl/openssl.cnf)" = "$openssl_cnf_sum" ] || fail "/etc/ssl/openssl.cnf changed"
if [ -s "$WORK/apt-added" ]; then
    echo "dpkg --purge what apt-get -f install brought in: $(tr '\n' ' ' < "$WORK/apt-added")"
    xargs dpkg --purge < "$WORK/apt-added" > /dev/null
    : > "$WORK/apt-added"
fi
package_set > "$WORK/packages.after"
if ! diff "$before_packages" "$WORK/packages.after" > "$WORK/packages.diff"; then
    # not this test's doing (it purged all it installed): something else installed or removed
    # packages meanwhile; shown, not failed
    echo "note: the package set changed meanwhile, not by this test:"
    sed 's/^/   /' "$WORK/packages.diff"
fi
echo "all $(sort -u "$WORK/paths" "$WORK"/dpkg-L.* | wc -l) paths the packages listed are gone, but for directories that were there before;"
echo "no file named like vg's left in /usr, /etc, /opt or /var/lib/dpkg/info; ldconfig's cache and /etc/ssl/openssl.cnf as before"

keep_work=0
step "test-debian: passed ($SECONDS s)"
