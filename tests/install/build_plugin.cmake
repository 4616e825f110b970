# Configures and builds the out-of-tree plug-in (run by ctest with cmake -P).
file(REMOVE_RECURSE ${BUILD})
set(_flags "")
if(SANITIZE)
  set(_flags "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined" "-DCMAKE_MODULE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BUILD} -G ${GENERATOR} -Dperksolve_DIR=${PERKSOLVE_DIR}
                        -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${_flags}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the out-of-tree plug-in failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the out-of-tree plug-in failed")
endif()
