# HDF5 for field output and checkpoints (framework/io). Parallel HDF5 (Debian libhdf5-openmpi-dev)
# is preferred: every rank writes its hyperslab of one global dataset with collective MPI-IO. With
# only serial HDF5 the gather fallback is compiled (rank 0 writes, the others send it their blocks).
# Without HDF5 the library still builds; the output/checkpoint keys then report a clear error.
#   PERKSOLVE_ENABLE_HDF5=OFF          build without HDF5 even when it is installed
#   PERKSOLVE_HDF5_FORCE_SERIAL=ON     compile the serial fallback even with parallel HDF5 (testing)
option(PERKSOLVE_ENABLE_HDF5 "Field output and checkpoints in HDF5 (needs libhdf5-openmpi-dev or libhdf5-dev)" ON)
option(PERKSOLVE_HDF5_FORCE_SERIAL "Use the serial-HDF5 gather path even when parallel HDF5 is found" OFF)

set(PERKSOLVE_HAVE_HDF5 0)
set(PERKSOLVE_HDF5_PARALLEL 0)
if(PERKSOLVE_ENABLE_HDF5)
  set(HDF5_PREFER_PARALLEL TRUE)
  find_package(HDF5 COMPONENTS C)
  if(HDF5_FOUND)
    set(PERKSOLVE_HAVE_HDF5 1)
    if(HDF5_IS_PARALLEL AND NOT PERKSOLVE_HDF5_FORCE_SERIAL)
      set(PERKSOLVE_HDF5_PARALLEL 1)
    endif()
    message(STATUS "perksolve: HDF5 ${HDF5_VERSION} (parallel: ${HDF5_IS_PARALLEL}; collective I/O used: ${PERKSOLVE_HDF5_PARALLEL})")
  else()
    message(WARNING "perksolve: HDF5 not found: field output and checkpoints are disabled "
                    "(install libhdf5-openmpi-dev, see scripts/setup.sh)")
  endif()
endif()

# perksolve_use_hdf5(TARGET SOURCES...): HDF5 include paths and macros for the few .cpp files that
# include hdf5.h; the library is linked privately so nothing downstream sees HDF5.
function(perksolve_use_hdf5 target)
  set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_DEFINITIONS
               PERKSOLVE_HAVE_HDF5=${PERKSOLVE_HAVE_HDF5} PERKSOLVE_HDF5_PARALLEL=${PERKSOLVE_HDF5_PARALLEL})
  if(PERKSOLVE_HAVE_HDF5)
    set_property(SOURCE ${ARGN} APPEND PROPERTY INCLUDE_DIRECTORIES ${HDF5_C_INCLUDE_DIRS})
    if(HDF5_C_DEFINITIONS)
      set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS ${HDF5_C_DEFINITIONS})
    endif()
    target_link_libraries(${target} PRIVATE ${HDF5_C_LIBRARIES})
  endif()
endfunction()
