# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# The CMake package of vg, installed in <prefix>/<libdir>/cmake/vg:
#
#   find_package(vg 0.2 REQUIRED)
#   target_link_libraries(app PRIVATE vg::vg)
#
# Targets (each brings the include directory with it):
#   vg::vg_shared  libvg.so.1 (SONAME; the file is libvg.so.1.<minor>.<patch>)
#   vg::vg_static  libvg.a (needs nothing else: no threads library, no libatomic)
#   vg::vg         vg::vg_shared; vg::vg_static if VG_USE_STATIC_LIBS is true when find_package runs,
#                  or if only the static library is installed
#
# A program linked to the shared library finds it at run time through the RUNPATH CMake writes into
# it in its build tree (the directory of libvg.so.1). `cmake --install` of that program removes that
# RUNPATH unless told otherwise: install vg where the dynamic loader looks (/usr/lib, or /usr/local/lib
# and run ldconfig), or set CMAKE_INSTALL_RPATH_USE_LINK_PATH ON (or INSTALL_RPATH) in the program's
# project, or link vg::vg_static.

foreach(_vg_kind IN ITEMS Shared Static)
  if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/vg${_vg_kind}Targets.cmake")
    include("${CMAKE_CURRENT_LIST_DIR}/vg${_vg_kind}Targets.cmake")
  endif()
endforeach()
unset(_vg_kind)

if(NOT TARGET vg::vg_shared AND NOT TARGET vg::vg_static)
  set(vg_FOUND FALSE)
  set(vg_NOT_FOUND_MESSAGE "neither vgSharedTargets.cmake nor vgStaticTargets.cmake is in ${CMAKE_CURRENT_LIST_DIR}")
  return()
endif()

if(VG_USE_STATIC_LIBS AND NOT TARGET vg::vg_static)
  set(vg_FOUND FALSE)
  set(vg_NOT_FOUND_MESSAGE "VG_USE_STATIC_LIBS is set but libvg.a is not installed (no vgStaticTargets.cmake)")
  return()
endif()

# vg::vg is an interface target over the chosen library rather than an ALIAS (an alias of a
# non-global imported target needs CMake 3.18). Imported targets belong to the directory that ran
# find_package (and those below it): the first find_package there decides what vg::vg is.
if(NOT TARGET vg::vg)
  add_library(vg::vg INTERFACE IMPORTED)
  if(TARGET vg::vg_shared AND NOT VG_USE_STATIC_LIBS)
    set_target_properties(vg::vg PROPERTIES INTERFACE_LINK_LIBRARIES vg::vg_shared)
  else()
    set_target_properties(vg::vg PROPERTIES INTERFACE_LINK_LIBRARIES vg::vg_static)
  endif()
endif()
