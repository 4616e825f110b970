# PERKSOLVE_GIT_REVISION: the commit the build was configured from (embedded in outputs).
include_guard(GLOBAL)
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE PERKSOLVE_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR PERKSOLVE_GIT_REVISION STREQUAL "")
  set(PERKSOLVE_GIT_REVISION "unknown")
endif()
