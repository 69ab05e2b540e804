# PROF_BUILD_FUZZERS: the libFuzzer targets of tests/fuzz (clang only). Every target is then built
# with coverage instrumentation and ASan+UBSan, so that the libraries the fuzzers drive report
# what they reach and the memory errors they make; prof_add_fuzzer() links libFuzzer's main.
option(PROF_BUILD_FUZZERS "Build the libFuzzer targets of tests/fuzz (needs clang)" OFF)
if(PROF_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PROF_BUILD_FUZZERS needs clang (-DCMAKE_CXX_COMPILER=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# prof_add_fuzzer(<name> <sources...>): a libFuzzer executable.
function(prof_add_fuzzer name)
  add_executable(${name} ${ARGN})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
endfunction()
