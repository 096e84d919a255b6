# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# cmake -DMAIN=<build dir> -DSTAMP=<file> -DMODE=record|check -P check_manifest_untouched.cmake
#
# The install tests must leave the user's build tree alone: `cmake --install` writes
# install_manifest.txt into the tree it installs, and that file is the user's record of their own
# install (what `xargs rm < install_manifest.txt` removes). install.tree records the file's state
# (absent, or its hash and time) before those tests; install.manifest_untouched, the fixture's clean-up,
# checks it did not change.
if(EXISTS "${MAIN}/install_manifest.txt")
  file(SHA256 "${MAIN}/install_manifest.txt" hash)
  file(TIMESTAMP "${MAIN}/install_manifest.txt" time "%s")
  set(state "${hash} ${time}")
else()
  set(state "absent")
endif()
if(MODE STREQUAL "record")
  file(WRITE "${STAMP}" "${state}")
  message(STATUS "${MAIN}/install_manifest.txt: ${state}")
else()
  file(READ "${STAMP}" before)
  if(NOT before STREQUAL state)
    message(FATAL_ERROR "FAIL: ${MAIN}/install_manifest.txt changed during the tests (${before} -> ${state}): "
                        "a test ran cmake --install on the main build tree")
  endif()
  message(STATUS "PASS: ${MAIN}/install_manifest.txt unchanged (${state})")
endif()
