# prof_copy_python(<target> DIR <dir> FILES <paths relative to dir>...)
# Copies prof's Python files into <build>/lib/python (their paths kept), where bin/prof's tree
# expects them, as the target <target> (built by default), and installs them the same way into
# lib/python beside bin/prof.
function(prof_copy_python target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DIR" "FILES")
  set(out_dir ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/python)
  set(copies)
  foreach(source ${arg_FILES})
    set(copy ${out_dir}/${source})
    add_custom_command(OUTPUT ${copy}
      COMMAND ${CMAKE_COMMAND} -E copy ${arg_DIR}/${source} ${copy}
      DEPENDS ${arg_DIR}/${source})
    list(APPEND copies ${copy})
    get_filename_component(subdir ${source} DIRECTORY)
    install(FILES ${arg_DIR}/${source} DESTINATION ${PROF_INSTALL_LIBDIR}/python/${subdir})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${copies})
endfunction()
