# PROF_SANITIZE: instrument every target with the sanitizers named, as -fsanitize takes them
# ("address,undefined" or "thread"). .ci/sanitize builds the tree so and runs the whole test suite.
set(PROF_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined or thread")
if(PROF_SANITIZE)
  # no-recover: a sanitizer report fails the test that triggered it instead of scrolling past.
  add_compile_options(-fsanitize=${PROF_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PROF_SANITIZE})
endif()
