# Helpers shared by every AscendPrec library target.
#
# All project libraries link the shared libMLIR/libLLVM that Debian ships: one
# copy of MLIR per process (toolchain pitfall 7) and links in seconds, not minutes.

set(ASCENDPREC_EXPORT_SET AscendPrecTargets)

# ascendprec_add_library(<name> SOURCES ... [DEPENDS tablegen-targets...]
#                        [LINK_LIBS other AscendPrec libs...])
function(ascendprec_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(AscendPrec::${name} ALIAS ${name})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                           EXPORT_NAME ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  if(ASCENDPREC_SANITIZE)
    # Instrumented archives need the sanitizer runtimes wherever they link.
    target_link_options(${name} INTERFACE -fsanitize=address,undefined)
  endif()
  install(TARGETS ${name} EXPORT ${ASCENDPREC_EXPORT_SET}
          ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
endfunction()
