# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# vg_install_configured(TEMPLATE <file.in> DESTINATION <dir> [VARS <var>...] [PATHS <var>...])
#
# Installs <file.in> configured (@VAR@ only) into <dir>, named without its ".in", with the
# substitution made at INSTALL time, not at configure time. Why: the files made this way (vg.pc,
# share/vg/vg-provider.cnf) name absolute paths of the installed tree, and the prefix is often given
# only then (`cmake --install build --prefix /usr`); one made at configure time would name the
# configured prefix (/usr/local) wherever the files really went.
#
#   VARS   variables whose configure-time values the template uses as they are;
#   PATHS  variables holding a directory relative to the install prefix (or absolute): the template
#          gets them absolute, under the prefix given at install time;
#   @VG_INSTALL_PREFIX@ is that prefix.
# DESTDIR is not part of any substituted path: a file staged under DESTDIR (a package build) names
# the paths the files will have once the package is unpacked, as CMake's own install rules do. The
# file goes into install_manifest.txt like any installed file. <dir> is relative to the prefix, or
# absolute.
function(vg_install_configured)
  cmake_parse_arguments(A "" "TEMPLATE;DESTINATION" "VARS;PATHS" ${ARGN})
  get_filename_component(name "${A_TEMPLATE}" NAME)
  string(REGEX REPLACE "\\.in$" "" name "${name}")
  # The install script sets each variable from a bracket argument (no escaping to get wrong), then
  # resolves the paths, configures the template into a staging file of its own (one per DESTDIR and
  # prefix, so two installs of one build tree at once do not share it) and installs that.
  set(_vg_ic_dest "${A_DESTINATION}")
  set(code "set(VG_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")\n")
  foreach(var IN LISTS A_VARS A_PATHS ITEMS _vg_ic_dest)
    string(APPEND code "set(${var} [==[${${var}}]==])\n")
  endforeach()
  foreach(var IN LISTS A_PATHS ITEMS _vg_ic_dest)
    string(APPEND code "if(NOT IS_ABSOLUTE \"\${${var}}\")\n"
                       "  set(${var} \"\${CMAKE_INSTALL_PREFIX}/\${${var}}\")\n"
                       "endif()\n"
                       "cmake_path(SET ${var} NORMALIZE \"\${${var}}\")\n"
                       "string(REGEX REPLACE \"(.)/$\" \"\\\\1\" ${var} \"\${${var}}\")\n")
  endforeach()
  string(APPEND code
    "cmake_path(SET VG_INSTALL_PREFIX NORMALIZE \"\${VG_INSTALL_PREFIX}\")\n"
    "string(REGEX REPLACE \"(.)/$\" \"\\\\1\" VG_INSTALL_PREFIX \"\${VG_INSTALL_PREFIX}\")\n"
    "file(READ [==[${A_TEMPLATE}]==] _vg_ic_text)\n"
    "string(CONFIGURE \"\${_vg_ic_text}\" _vg_ic_text @ONLY)\n"
    "string(MD5 _vg_ic_key \"\$ENV{DESTDIR}|\${_vg_ic_dest}\")\n"
    "set(_vg_ic_staged \"${CMAKE_CURRENT_BINARY_DIR}/install-configured/\${_vg_ic_key}/${name}\")\n"
    "file(WRITE \"\${_vg_ic_staged}\" \"\${_vg_ic_text}\")\n"
    "file(INSTALL DESTINATION \"\${_vg_ic_dest}\" TYPE FILE FILES \"\${_vg_ic_staged}\")\n")
  # file(INSTALL) adds DESTDIR itself and records the file in the install manifest: at the install
  # script's own scope, which install(CODE) is (a function here would lose the record).
  install(CODE "${code}")
endfunction()
