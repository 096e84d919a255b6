# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# cmake -DSOURCE=<src> -DTREE=<dir> -DARGS_FILE=<file setting ARGS> -P build_install_tree.cmake
#
# The fixture install.tree (tests/suite.cmake): configures and builds the project in TREE, a build
# directory of the tests' own, with the configure arguments ARGS (this build's compiler and options,
# BUILD_TESTING=OFF). The install tests install from TREE, so that `cmake --install` never writes the
# main build tree's install_manifest.txt. Incremental: a second run rebuilds only what changed.
include(${ARGS_FILE})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${TREE} ${ARGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring ${TREE} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${TREE} --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building ${TREE} failed (${rc})")
endif()
