#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_provider_install.sh BUILD_DIR CMAKE relative|absolute
#
# The provider as docs/openssl-provider.md tells a user to install and enable it, with the real
# `openssl` program and OPENSSL_MODULES unset. BUILD_DIR is the tests' own build tree (the fixture
# install.tree), never the user's: `cmake --install` rewrites the manifest of the tree it installs.
#  1. DESTDIR=<tmp> cmake --install BUILD_DIR --prefix <OpenSSL's prefix>, the documented route
#     staged: vg.so must land in exactly the directory OpenSSL searches (`openssl version -m`), and
#     share/vg/vg-provider.cnf must name that path, without DESTDIR (with "absolute", that is with
#     VG_OPENSSL_MODULESDIR set to an absolute directory, only the second is checked).
#  2. cmake --install BUILD_DIR --prefix <tmp>: the configuration names the module where it landed,
#     and OPENSSL_CONF=<it> openssl list -providers lists vg, active; the installed
#     vg-provider-check says vg serves everything.
#  3. The system-wide route: a copy of OpenSSL's own openssl.cnf that .includes the configuration, at
#     its end and at its top (with config_diagnostics on, so a line of the including file landing in
#     one of vg's sections would stop openssl from starting), and a file with no openssl_conf of its
#     own that includes it inside a section: all list vg.
# Exit 0 pass, 1 fail, 77 skipped (no openssl program).
set -u
usage="usage: check_provider_install.sh BUILD_DIR CMAKE relative|absolute"
build=${1:?$usage}
cmake=${2:?$usage}
kind=${3:?$usage}
unset OPENSSL_MODULES OPENSSL_CONF VG_IMPL
command -v openssl > /dev/null || { echo "SKIPPED: no openssl program"; exit 77; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# lists_vg CONF: OPENSSL_CONF=CONF openssl list -providers names vg, active
lists_vg() {
    echo "== OPENSSL_CONF=$1 openssl list -providers"
    OPENSSL_CONF=$1 openssl list -providers > "$tmp/list" 2>&1 || { cat "$tmp/list"; fail "openssl list failed"; }
    cat "$tmp/list"
    awk '/^  vg$/ { vg = 1 } vg && /status: active/ { ok = 1 } END { exit !ok }' "$tmp/list" \
        || fail "openssl does not list vg as active with $1"
}

searched=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
[ -n "$searched" ] || fail "openssl version -m gives no MODULESDIR"
ossl_prefix=$(pkg-config --variable=prefix libcrypto 2>/dev/null) || ossl_prefix=
[ -n "$ossl_prefix" ] || ossl_prefix=/usr
echo "OpenSSL searches $searched; its prefix is $ossl_prefix"

echo "== 1. DESTDIR=$tmp/root cmake --install $build --prefix $ossl_prefix"
DESTDIR="$tmp/root" "$cmake" --install "$build" --prefix "$ossl_prefix" > "$tmp/install1.log" 2>&1 \
    || { cat "$tmp/install1.log"; fail "cmake --install"; }
grep 'vg\.so\|vg-provider' "$tmp/install1.log"
cnf="$tmp/root$ossl_prefix/share/vg/vg-provider.cnf"
[ -f "$cnf" ] || fail "no share/vg/vg-provider.cnf under $tmp/root$ossl_prefix"
named=$(sed -n 's/^module = //p' "$cnf")
echo "the configuration names module = $named"
[ -f "$tmp/root$named" ] || fail "the configuration names $named, but the module is not at DESTDIR$named"
if [ "$kind" = relative ]; then
    [ "$named" = "$searched/vg.so" ] || fail "installed with OpenSSL's prefix, vg.so went to $named, not $searched/vg.so"
    echo "vg.so lands where OpenSSL searches: $searched/vg.so"
fi
[ -x "$tmp/root$ossl_prefix/bin/vg-provider-check" ] || fail "vg-provider-check not installed in $ossl_prefix/bin"

prefix="$tmp/prefix"
echo "== 2. cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" > "$tmp/install2.log" 2>&1 \
    || { cat "$tmp/install2.log"; fail "cmake --install"; }
cnf="$prefix/share/vg/vg-provider.cnf"
[ -f "$cnf" ] || fail "no $cnf"
named=$(sed -n 's/^module = //p' "$cnf")
[ -f "$named" ] || fail "the configuration names $named, which is not installed"
if [ "$kind" = relative ]; then
    case "$named" in "$prefix"/*) ;; *) fail "with --prefix $prefix the module went to $named" ;; esac
fi
lists_vg "$cnf"
echo "== OPENSSL_CONF=$cnf $prefix/bin/vg-provider-check"
OPENSSL_CONF=$cnf "$prefix/bin/vg-provider-check" > "$tmp/check" 2>&1 \
    || { cat "$tmp/check"; fail "vg-provider-check says vg does not serve"; }
cat "$tmp/check"

echo "== 3. .include from a copy of OpenSSL's openssl.cnf"
system="$(openssl version -d | sed -n 's/^OPENSSLDIR: "\(.*\)"$/\1/p')/openssl.cnf"
if [ -r "$system" ]; then
    cp "$system" "$tmp/system.cnf" || fail "copying $system"
else
    echo "($system unreadable: a minimal one instead)"
    printf 'openssl_conf = openssl_init\n[openssl_init]\n' > "$tmp/system.cnf"
fi
{ cat "$tmp/system.cnf"; echo; echo ".include $cnf"; } > "$tmp/include-end.cnf"
lists_vg "$tmp/include-end.cnf"
{ echo "config_diagnostics = 1"; echo ".include $cnf"; cat "$tmp/system.cnf"; } > "$tmp/include-top.cnf"
lists_vg "$tmp/include-top.cnf"
# and from a file that sets no openssl_conf and ends in a section of its own: the configuration's
# openssl_conf must still land in the default section
printf '[ req ]\ndefault_bits = 2048\n.include %s\n' "$cnf" > "$tmp/include-bare.cnf"
lists_vg "$tmp/include-bare.cnf"
echo "PASS"
