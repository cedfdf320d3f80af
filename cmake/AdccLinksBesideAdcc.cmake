# Symbolic links installed beside the adcc executable, in <prefix>/bin and in
# the build tree's bin/ (which has the same layout).
#
# adcc_link_beside_adcc(<name> <target>): bin/<name> -> <target>, made when
# adcc is built and installed with it. <target> is a file name in bin/ or an
# absolute path.
function(adcc_link_beside_adcc name target)
  add_custom_command(TARGET adcc POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E create_symlink "${target}"
            "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${name}"
    VERBATIM)
  install(FILES "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${name}" DESTINATION bin)
endfunction()

# adcc++ is adcc in C++ mode, chosen from the program name as clang++ is.
adcc_link_beside_adcc(adcc++ adcc)

# Names that tools which watch a build for compiles (Bear, intercept-build)
# recognize as clang's; adcc runs itself as these under such a tool
# (driver/Interception.cpp).
adcc_link_beside_adcc(adcc-clang adcc)
adcc_link_beside_adcc(adcc-clang++ adcc)

# The LLVM 22 binary tools, under the names that CMake's binutils search
# (CMakeFindBinUtils) tries for a Clang compiler. CMake derives a prefix and a
# version suffix from names like clang-22 (and so finds llvm-ar-22), but none
# from "adcc"; it then tries the unsuffixed names, first in the compiler's
# directory and only then on PATH. Without these links, a project configured
# with -DCMAKE_C_COMPILER=adcc archives with whatever llvm-ar comes first on
# PATH, maybe an older LLVM that cannot read LLVM 22 bitcode (-flto).
# One row per tool; a tool that LLVM 22 lacks is left out.
set(ADCC_LLVM_TOOL_LINK_NAMES
  llvm-ar          # CMAKE_AR
  llvm-ranlib      # CMAKE_RANLIB
  llvm-nm          # CMAKE_NM
  ld.lld           # CMAKE_LINKER
  llvm-strip       # CMAKE_STRIP
  llvm-objcopy     # CMAKE_OBJCOPY
  llvm-objdump     # CMAKE_OBJDUMP
  llvm-readelf     # CMAKE_READELF
  llvm-addr2line   # CMAKE_ADDR2LINE
)
option(ADCC_INSTALL_LLVM_TOOL_LINKS
  "Install links to LLVM 22's llvm-ar, llvm-ranlib, ld.lld ... beside adcc, \
where CMake finds them for -DCMAKE_C_COMPILER=adcc" ON)
if(ADCC_INSTALL_LLVM_TOOL_LINKS)
  foreach(tool IN LISTS ADCC_LLVM_TOOL_LINK_NAMES)
    if(EXISTS "${ADCC_LLVM_TOOLS_DIR}/${tool}")
      adcc_link_beside_adcc(${tool} "${ADCC_LLVM_TOOLS_DIR}/${tool}")
    else()
      message(STATUS "adcc: LLVM 22 has no ${tool}; no link to it beside adcc")
    endif()
  endforeach()
endif()
