# prof_embed_text_files(<output_var> DIR <dir> HEADER <include> NAMESPACE <ns> FUNCTION <name>
#                       FILES <paths relative to dir>... [INCLUDES <paths relative to dir>...])
# Generates a .cpp defining `const std::vector<EmbeddedFile>& <ns>::<name>()` with the files' text
# (common/embedded_files.h) and stores its path in <output_var>, to add to a target's sources.
# INCLUDES: the files FILES include ("-- include: <path>", cmake/embed_text_files.cmake); they are
# not embedded on their own, only listed so that editing them regenerates the .cpp.
function(prof_embed_text_files output_var)
  cmake_parse_arguments(EMBED "" "DIR;HEADER;NAMESPACE;FUNCTION" "FILES;INCLUDES" ${ARGN})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/${EMBED_FUNCTION}.cpp)
  list(TRANSFORM EMBED_FILES PREPEND ${EMBED_DIR}/ OUTPUT_VARIABLE paths)
  list(TRANSFORM EMBED_INCLUDES PREPEND ${EMBED_DIR}/ OUTPUT_VARIABLE included_paths)
  set(script ${PROJECT_SOURCE_DIR}/cmake/embed_text_files.cmake)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DDIR=${EMBED_DIR} -DOUTPUT=${output} "-DFILES=${EMBED_FILES}"
            -DHEADER=${EMBED_HEADER} -DNAMESPACE=${EMBED_NAMESPACE} -DFUNCTION=${EMBED_FUNCTION}
            -P ${script}
    DEPENDS ${paths} ${included_paths} ${script}
    COMMENT "Embedding ${EMBED_FUNCTION}"
    VERBATIM)
  set(${output_var} ${output} PARENT_SCOPE)
endfunction()
