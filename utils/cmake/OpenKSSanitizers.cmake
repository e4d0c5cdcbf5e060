#===- OpenKSSanitizers.cmake - -DOPENKS_SANITIZE support -------------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# OPENKS_SANITIZE is a list: "address;undefined" or "thread". The flags apply
# to everything this project compiles and links; Debian's MLIR libraries stay
# uninstrumented, which both sanitizers tolerate.
#
#===----------------------------------------------------------------------===#

# Gives an executable the sanitizer defaults it needs next to Debian's
# uninstrumented libraries (see AsanDefaultOptions.cpp and
# TsanDefaultSuppressions.cpp); a no-op in other builds.
function(openks_add_sanitizer_defaults target)
  if("address" IN_LIST OPENKS_SANITIZE)
    target_sources(${target} PRIVATE
      ${PROJECT_SOURCE_DIR}/utils/cmake/AsanDefaultOptions.cpp)
  endif()
  if("thread" IN_LIST OPENKS_SANITIZE)
    target_sources(${target} PRIVATE
      ${PROJECT_SOURCE_DIR}/utils/cmake/TsanDefaultSuppressions.cpp)
  endif()
endfunction()

# Fuzzing instruments everything this project compiles for coverage; the
# fuzz targets link libFuzzer's main themselves (utils/fuzz).
if(OPENKS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "OPENKS_FUZZ needs clang (utils/fuzz.sh uses clang-22)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(NOT OPENKS_SANITIZE)
  return()
endif()

set(_openks_known address undefined thread)
foreach(_san IN LISTS OPENKS_SANITIZE)
  if(NOT _san IN_LIST _openks_known)
    message(FATAL_ERROR "OPENKS_SANITIZE: unknown sanitizer '${_san}' "
      "(expected 'address;undefined' or 'thread')")
  endif()
endforeach()
if("thread" IN_LIST OPENKS_SANITIZE AND "address" IN_LIST OPENKS_SANITIZE)
  message(FATAL_ERROR "OPENKS_SANITIZE: 'thread' cannot be combined with 'address'")
endif()

list(JOIN OPENKS_SANITIZE "," _openks_san_list)
set(_openks_san_flags -fsanitize=${_openks_san_list} -fno-omit-frame-pointer -g)
if("undefined" IN_LIST OPENKS_SANITIZE)
  list(APPEND _openks_san_flags -fno-sanitize-recover=undefined)
  # LLVM's headers are built without RTTI-based vptr checks in mind.
  list(APPEND _openks_san_flags -fno-sanitize=vptr)
endif()
add_compile_options(${_openks_san_flags})
add_link_options(${_openks_san_flags})
message(STATUS "OpenKS: building with sanitizers ${_openks_san_list}")
