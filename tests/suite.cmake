# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# The behavioural suite: differential against the spec, bad input, forgery, streaming, threads (per
# implementation), the exported symbols and the install tree (once), and the constant-time check
# (per implementation, under valgrind memcheck, or natively in a MemorySanitizer build).

foreach(t aes ctr_stream aead gcm_stream gcm_batch overlap contexts)
  vg_add_test_program(test_${t} test_${t}.c)
  vg_add_impl_test(NAME ${t} TARGET test_${t})
endforeach()
# test_aes checks white-box which implementation a key recorded (struct vg_aes_key_state); test_aead
# reads that implementation's short one-shot GCM limits (struct vg_impl) to test both sides of them.
target_include_directories(test_aes PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_include_directories(test_aead PRIVATE ${PROJECT_SOURCE_DIR}/src)

find_package(Threads REQUIRED)
vg_add_test_program(test_threads test_threads.c)
target_link_libraries(test_threads PRIVATE Threads::Threads)
vg_add_impl_test(NAME threads TARGET test_threads)

# The exported symbols and SONAME of libvg.so, and an install into a temporary prefix used through
# pkg-config, shared and static. These (and consumer below) skip (77) when cross-compiling.
set(vg_cross_flag)
if(CMAKE_CROSSCOMPILING)
  set(vg_cross_flag --cross)
endif()
add_test(NAME exports
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_exports.sh $<TARGET_FILE:vg_shared>
                 ${PROJECT_SOURCE_DIR}/include/vg.h ${vg_cross_flag})
set_tests_properties(exports PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME static_symbols
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_static_symbols.sh $<TARGET_FILE:vg_static> ${vg_cross_flag})
set_tests_properties(static_symbols PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
# The tests that install do so from a build tree of their own, tests/install-tree (the fixture
# install.tree configures and builds it, incrementally, with this build's compiler and options and
# BUILD_TESTING=OFF), never from this one: `cmake --install` writes install_manifest.txt into the
# tree it installs, and that file is the user's record of what their own install put where.
# build_testing_off then checks that tree holds no test program, spec library or vg-speed.
# Not in the sanitizer builds: what these check (the installed files, the pkg-config and CMake
# packages, a consumer linking them) does not depend on the instrumentation, test-native runs them,
# and a second sanitized build of the whole tree (the fixture) cost ~150 s of CI's 35 minutes.
if(VG_SANITIZE OR VG_MSAN)
  message(STATUS "install.tree, install, consumer and build_testing_off not registered in a sanitizer build "
                 "(test-native runs them)")
else()
  set(VG_INSTALL_TREE ${CMAKE_CURRENT_BINARY_DIR}/install-tree)
  if(NOT CMAKE_CROSSCOMPILING)
    set(vg_tree_args -G ${CMAKE_GENERATOR} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
        -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DCMAKE_C_FLAGS=${CMAKE_C_FLAGS} -DVG_WERROR=${VG_WERROR}
        -DVG_OPENSSL_PROVIDER=${VG_OPENSSL_PROVIDER}
        -DVG_PYTHON=OFF -DBUILD_TESTING=OFF -UVG_BUILD_BENCH) # VG_BUILD_BENCH's default, as if new
    if(VG_OPENSSL_PROVIDER)
      list(APPEND vg_tree_args -DVG_OPENSSL_MODULESDIR=${VG_OPENSSL_MODULESDIR})
    endif()
    # (a list with ';' does not survive as one test argument: it goes through a file)
    file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/install-tree-args.cmake
         CONTENT "set(ARGS [==[@vg_tree_args@]==])\n" @ONLY)
    add_test(NAME install.tree
             COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -DTREE=${VG_INSTALL_TREE}
                     -DARGS_FILE=${CMAKE_CURRENT_BINARY_DIR}/install-tree-args.cmake
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/build_install_tree.cmake)
    set_tests_properties(install.tree PROPERTIES FIXTURES_SETUP vg_install_tree TIMEOUT 1200)
    set(vg_manifest_args -DMAIN=${PROJECT_BINARY_DIR} -DSTAMP=${CMAKE_CURRENT_BINARY_DIR}/install-manifest-stamp.txt)
    add_test(NAME install.manifest_record
             COMMAND ${CMAKE_COMMAND} ${vg_manifest_args} -DMODE=record
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/check_manifest_untouched.cmake)
    add_test(NAME install.manifest_untouched
             COMMAND ${CMAKE_COMMAND} ${vg_manifest_args} -DMODE=check
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/check_manifest_untouched.cmake)
    set_tests_properties(install.manifest_record PROPERTIES FIXTURES_SETUP vg_install_tree)
    set_tests_properties(install.manifest_untouched PROPERTIES FIXTURES_CLEANUP vg_install_tree)
    add_test(NAME build_testing_off
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_build_testing_off.sh ${VG_INSTALL_TREE} ${CMAKE_COMMAND})
    set_tests_properties(build_testing_off PROPERTIES FIXTURES_REQUIRED vg_install_tree TIMEOUT 60)
  endif()
  add_test(NAME install
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_install.sh ${VG_INSTALL_TREE} ${CMAKE_COMMAND}
                   ${CMAKE_C_COMPILER} ${vg_cross_flag})
  # The CMake package, the same way: installed, moved, then found by tests/consumer (find_package(vg)),
  # which links vg::vg, vg::vg_shared and vg::vg_static and runs each (tests/check_consumer.sh).
  add_test(NAME consumer
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_consumer.sh ${VG_INSTALL_TREE} ${PROJECT_SOURCE_DIR}
                   ${CMAKE_COMMAND} ${CMAKE_C_COMPILER} ${PROJECT_VERSION} ${vg_cross_flag})
  set_tests_properties(install consumer PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  if(NOT CMAKE_CROSSCOMPILING)
    set_tests_properties(install consumer PROPERTIES FIXTURES_REQUIRED vg_install_tree)
  endif()
endif()

# Constant time. Under valgrind: every secret marked undefined, memcheck reports any branch or address
# that depends on one, and any report fails the test. Not with ASan (the two do not mix) nor under an
# emulator. In an MSan build the same program runs natively with MSan's poisoning instead.
if(VG_MSAN)
  vg_add_test_program(ct_valgrind ct_valgrind.c)
  foreach(impl ${VG_IMPLS})
    add_test(NAME ct_msan.${impl} COMMAND ct_valgrind --impl ${impl} --require-checker)
    set_tests_properties(ct_msan.${impl} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()
elseif(NOT CMAKE_CROSSCOMPILING AND NOT VG_SANITIZE)
  find_program(VG_VALGRIND valgrind)
  if(VG_VALGRIND AND TARGET vg_ct_static)
    # linked with vg_ct_static, the library whose open verdict is declassified for valgrind
    # (CMakeLists.txt), not with vg_static: a harness of its own.
    add_executable(ct_valgrind ct_valgrind.c harness.c)
    target_link_libraries(ct_valgrind PRIVATE vg_ct_static vg_spec)
    target_compile_definitions(ct_valgrind PRIVATE VG_TEST_VECTORS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/vectors")
    target_include_directories(ct_valgrind PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${VG_VALGRIND_INCLUDE})
    foreach(impl ${VG_IMPLS})
      add_test(NAME ct_valgrind.${impl}
               COMMAND ${VG_VALGRIND} --error-exitcode=1 --exit-on-first-error=no -q
                       $<TARGET_FILE:ct_valgrind> --impl ${impl} --require-checker)
      set_tests_properties(ct_valgrind.${impl} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
    endforeach()
  else()
    message(STATUS "valgrind or valgrind/memcheck.h not found: the constant-time test is not registered")
  endif()
endif()
