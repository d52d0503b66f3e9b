# Cross (or native) toolchain for the binaries that ship in the package, set up by
# scripts/prebuild.js through the environment (try_compile sees it there too):
#   CUDA_DRIVER_TARGET_TRIPLE  Debian's triple, e.g. aarch64-linux-gnu
#   CUDA_DRIVER_COMPILER_PREFIX  '' for the host's own gcc, else "<triple>-"
#   CUDA_DRIVER_SYSROOT        a glibc 2.17 sysroot for that triple
set(CMAKE_SYSTEM_NAME Linux)
string(REGEX REPLACE "-.*" "" CMAKE_SYSTEM_PROCESSOR "$ENV{CUDA_DRIVER_TARGET_TRIPLE}")
set(CMAKE_C_COMPILER "$ENV{CUDA_DRIVER_COMPILER_PREFIX}gcc")
set(CMAKE_CXX_COMPILER "$ENV{CUDA_DRIVER_COMPILER_PREFIX}g++")
set(CMAKE_SYSROOT "$ENV{CUDA_DRIVER_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# GCC's static libstdc++ first, then the sysroot's C libraries, before the
# compiler's own multiarch folders (which hold the build machine's newer glibc).
execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -print-file-name=libstdc++.a
  OUTPUT_VARIABLE libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE)
get_filename_component(gcc_lib_dir "${libstdcxx}" DIRECTORY)
set(link_dirs "-L${gcc_lib_dir}")
foreach(dir lib64 usr/lib64 lib usr/lib)
  if(EXISTS "${CMAKE_SYSROOT}/${dir}")
    string(APPEND link_dirs " -L${CMAKE_SYSROOT}/${dir}")
  endif()
endforeach()
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${link_dirs}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${link_dirs}")
