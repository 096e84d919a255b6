# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# cmake -DREADME=README.md -DEXAMPLE=examples/gcm_oneshot.c -DOUT=block.c -P check_readme.cmake
#
# The first ```c block after "## The API in brief" in README must be EXAMPLE exactly, so the two cannot
# drift apart. The block found is written to OUT (for `diff OUT EXAMPLE` when they differ).
cmake_minimum_required(VERSION 3.20)
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "\n## The API in brief\n" section)
if(section EQUAL -1)
  message(FATAL_ERROR "${README}: no \"## The API in brief\" section")
endif()
string(SUBSTRING "${readme}" ${section} -1 readme)
set(open_fence "\n```c\n")
string(FIND "${readme}" "${open_fence}" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${README}: no ```c block after \"## The API in brief\"")
endif()
string(LENGTH "${open_fence}" fence_length)
math(EXPR start "${start} + ${fence_length}")
string(SUBSTRING "${readme}" ${start} -1 readme)
# The closing fence is the first line that is exactly ```; the block keeps its last newline.
string(FIND "${readme}" "\n```\n" end)
if(end EQUAL -1)
  message(FATAL_ERROR "${README}: the ```c block after \"## The API in brief\" is not closed")
endif()
math(EXPR end "${end} + 1")
string(SUBSTRING "${readme}" 0 ${end} block)
file(WRITE "${OUT}" "${block}")
if(NOT block STREQUAL example)
  message(FATAL_ERROR "README.md's first example is not ${EXAMPLE}: diff ${OUT} ${EXAMPLE}")
endif()
message(STATUS "README.md's first example is ${EXAMPLE}")
