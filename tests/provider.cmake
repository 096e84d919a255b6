# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# The OpenSSL provider's tests (included by tests/CMakeLists.txt when provider/ is built). Each runs
# once per implementation: --impl for the test program's own vg, VG_IMPL for the vg inside vg.so.
find_package(OpenSSL 3.0 REQUIRED COMPONENTS Crypto)
find_package(OpenSSL 3.0 COMPONENTS SSL) # libssl: only the libssl test needs it
add_library(vg_provider_test_common STATIC ${CMAKE_CURRENT_SOURCE_DIR}/provider_common.c)
target_link_libraries(vg_provider_test_common PUBLIC vg_test_harness OpenSSL::Crypto)
set(vg_modules_dir $<TARGET_FILE_DIR:vg_provider>)

# vg_add_provider_test(NAME <name> COMMAND <argv...> [TIMEOUT s])
function(vg_add_provider_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set(quick)
  if(VG_TEST_QUICK)
    set(quick --quick)
  endif()
  foreach(impl ${VG_IMPLS})
    add_test(NAME provider.${T_NAME}.${impl}
             COMMAND ${T_COMMAND} --impl ${impl} --modules ${vg_modules_dir}
                     --vectors ${CMAKE_CURRENT_SOURCE_DIR}/vectors ${quick})
    set_tests_properties(provider.${T_NAME}.${impl} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${T_TIMEOUT}
                         ENVIRONMENT "VG_IMPL=${impl};OPENSSL_CONF=/dev/null")
  endforeach()
endfunction()

add_executable(test_provider_diff test_provider_diff.c)
target_link_libraries(test_provider_diff PRIVATE vg_provider_test_common)
add_dependencies(test_provider_diff vg_provider)
vg_add_provider_test(NAME diff COMMAND test_provider_diff)

if(TARGET OpenSSL::SSL)
  find_package(Threads REQUIRED)
  add_executable(test_provider_libssl test_provider_libssl.c)
  target_link_libraries(test_provider_libssl PRIVATE vg_provider_test_common OpenSSL::SSL Threads::Threads)
  add_dependencies(test_provider_libssl vg_provider)
  vg_add_provider_test(NAME libssl COMMAND test_provider_libssl)
else()
  message(STATUS "libssl not found: provider.libssl.* not registered")
endif()

# Real TLS with Debian's openssl s_server/s_client (check_provider_tls.sh). Not in ASan/MSan builds:
# the openssl binary is not instrumented, so it cannot load an instrumented vg.so.
vg_add_test_program(provider_impl_available provider_impl_available.c)
if(VG_SANITIZE OR VG_MSAN)
  message(STATUS "provider.tls.* not registered: the openssl binary cannot load a sanitized vg.so")
else()
  vg_add_provider_test(NAME tls TIMEOUT 600
                       COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_provider_tls.sh
                               --avail $<TARGET_FILE:provider_impl_available>)
endif()

# The project's AEAD vector programs, unchanged, with every vector sent through EVP and vg.so
# (provider_vector_hook.c): NIST CAVP GCM and CCM, RFC 3610, RFC 8452, Wycheproof GCM/CCM/GCM-SIV.
foreach(family gcm ccm gcm_siv wycheproof)
  add_executable(provider_vectors_${family} vectors_${family}.c provider_vector_hook.c)
  target_link_libraries(provider_vectors_${family} PRIVATE vg_vecfile vg_provider_test_common)
  add_dependencies(provider_vectors_${family} vg_provider)
  vg_add_provider_test(NAME vectors_${family} COMMAND provider_vectors_${family})
endforeach()
# The AESAVS ECB vectors (KAT, MMT, Monte Carlo): vectors_aes.c, unchanged, included by
# provider_vectors_aes.c after provider_ecb_shim.h, which renames its AES calls to EVP's AES-*-ECB
# from vg.so (provider_ecb_shim.c).
add_executable(provider_vectors_aes provider_vectors_aes.c provider_ecb_shim.c)
target_link_libraries(provider_vectors_aes PRIVATE vg_vecfile vg_provider_test_common)
add_dependencies(provider_vectors_aes vg_provider)
vg_add_provider_test(NAME vectors_aes COMMAND provider_vectors_aes)

# Random EVP call sequences (test_provider_seq.c): every call an AEAD context takes, in random order,
# on vg and default in lock step; the places vg is deliberately stricter are named there.
add_executable(test_provider_seq test_provider_seq.c)
target_link_libraries(test_provider_seq PRIVATE vg_provider_test_common)
add_dependencies(test_provider_seq vg_provider)
vg_add_provider_test(NAME seq COMMAND test_provider_seq)
# OpenSSL's own evp_test vectors for AES-GCM-SIV (tests/vectors/openssl/, OpenSSL 3.5.5's
# evpciph_aes_gcm_siv.txt), with the calls evp_test makes (provider_vectors_evp.c).
add_executable(provider_vectors_evp provider_vectors_evp.c)
target_link_libraries(provider_vectors_evp PRIVATE vg_provider_test_common)
add_dependencies(provider_vectors_evp vg_provider)
vg_add_provider_test(NAME vectors_evp COMMAND provider_vectors_evp)
