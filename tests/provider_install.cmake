# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# The provider as a user installs, enables and checks it (included by tests/CMakeLists.txt when
# provider/ is built), with the real `openssl` program. Not in ASan/MSan builds: the openssl program
# is not instrumented, so it cannot load an instrumented vg.so.
if(VG_SANITIZE OR VG_MSAN)
  message(STATUS "provider.check.* and provider.install not registered: "
                 "the openssl program cannot load a sanitized vg.so")
  return()
endif()

# vg-provider-check against the build tree's vg.so (tests/check_provider_check.sh).
foreach(case vg devnull missing impl_env pid)
  add_test(NAME provider.check.${case}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_provider_check.sh ${case}
                   $<TARGET_FILE:vg-provider-check> $<TARGET_FILE:vg_provider>)
  set_tests_properties(provider.check.${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# The install: where vg.so lands against where OpenSSL searches, share/vg/vg-provider.cnf through
# OPENSSL_CONF and through .include, the installed vg-provider-check (tests/check_provider_install.sh).
# From the tests' own build tree (tests/suite.cmake's install.tree fixture), never this one.
if(NOT CMAKE_CROSSCOMPILING)
  set(vg_modulesdir_kind relative)
  if(IS_ABSOLUTE "${VG_OPENSSL_MODULESDIR}")
    set(vg_modulesdir_kind absolute)
  endif()
  add_test(NAME provider.install
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_provider_install.sh ${VG_INSTALL_TREE}
                   ${CMAKE_COMMAND} ${vg_modulesdir_kind})
  set_tests_properties(provider.install PROPERTIES FIXTURES_REQUIRED vg_install_tree
                       SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
