#===- AddOpenKS.cmake - How OpenKS declares its libraries -----------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Every OpenKS library is declared with add_openks_library, so each one is
# built the same way and joins the OpenKSTargets export set: the package
# that `find_package(OpenKS CONFIG)` imports, as OpenKS::<name without the
# OpenKS prefix> (OpenKS::TrainDialect, OpenKS::Transforms, ...).
#
#   add_openks_library(OpenKSTransforms
#     Pass.cpp ...
#     DEPENDS OpenKSTransformsIncGen
#     LINK_LIBS PUBLIC MLIRIR ...)
#
# builds an MLIR library (add_mlir_library, which brings LLVM's compile flags
# and LLVMSupport). With NO_MLIR the library is a plain static library that
# cannot reach MLIR or LLVM (see openks_keep_mlir_free): the runtime core and
# the support code it shares with the dialects.
#
#===----------------------------------------------------------------------===#

include_guard(GLOBAL)

# Limits `target` to the project's own MLIR-free headers (include/) and
# those of the libraries it links: an LLVM or MLIR include in its sources is
# a compile error, so the build enforces the runtime core's layering. Further
# arguments are more include folders of the target's own.
function(openks_keep_mlir_free target)
  set_target_properties(${target} PROPERTIES INCLUDE_DIRECTORIES
    "${PROJECT_SOURCE_DIR}/include;${PROJECT_BINARY_DIR}/include;${ARGN}")
endfunction()

function(add_openks_library name)
  cmake_parse_arguments(ARG "NO_MLIR" "" "DEPENDS;LINK_LIBS" ${ARGN})
  if(ARG_NO_MLIR)
    add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
    llvm_update_compile_flags(${name})
    openks_keep_mlir_free(${name})
    if(ARG_DEPENDS)
      add_dependencies(${name} ${ARG_DEPENDS})
    endif()
    target_link_libraries(${name} ${ARG_LINK_LIBS})
  else()
    # MLIR's own install rules would put the library into MLIR's export set.
    add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
      DISABLE_INSTALL
      DEPENDS ${ARG_DEPENDS}
      LINK_LIBS ${ARG_LINK_LIBS})
  endif()
  # Installed as OpenKS::<name without the prefix> (OpenKS::TrainDialect).
  string(REGEX REPLACE "^OpenKS" "" export_name ${name})
  set_target_properties(${name} PROPERTIES
    FOLDER "OpenKS/Libraries"
    EXPORT_NAME ${export_name})
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name}
    EXPORT OpenKSTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  if(NOT ARG_NO_MLIR)
    set_property(GLOBAL APPEND PROPERTY OPENKS_MLIR_LIBRARIES ${export_name})
  endif()
endfunction()

# Every OpenKS command-line tool is declared with add_openks_tool, so each
# one is built with LLVM's flags and the sanitizer defaults and installed
# into bin/:
#
#   add_openks_tool(openks-opt openks-opt.cpp)
#   target_link_libraries(openks-opt PRIVATE ...)
function(add_openks_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  openks_add_sanitizer_defaults(${name})
  set_target_properties(${name} PROPERTIES FOLDER "OpenKS/Tools")
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
