# Provides one target, perksolve::kokkos_stack (Kokkos core + containers + Kokkos Kernels), for
#  (a) an upstream Kokkos / Kokkos Kernels install (targets Kokkos::kokkos, Kokkos::kokkoskernels), and
#  (b) Debian's Trilinos-packaged Kokkos 3.4, whose Kokkos::kokkos target points at a missing
#      /usr/lib/include and which has no Kokkos::kokkoskernels target: there we build the target from
#      KokkosKernels_INCLUDE_DIRS / _LIBRARIES / _LIBRARY_DIRS.
include_guard(GLOBAL)

add_library(perksolve_kokkos_stack INTERFACE)
add_library(perksolve::kokkos_stack ALIAS perksolve_kokkos_stack)

set(_perksolve_kokkos_flavour "")
find_package(KokkosKernels QUIET)
if(TARGET Kokkos::kokkoskernels)
  # Upstream install: Kokkos Kernels exports a proper target that pulls in Kokkos::kokkos.
  target_link_libraries(perksolve_kokkos_stack INTERFACE Kokkos::kokkoskernels)
  set(_perksolve_kokkos_flavour "upstream (Kokkos::kokkoskernels)")
elseif(KokkosKernels_FOUND AND KokkosKernels_INCLUDE_DIRS)
  # Trilinos-packaged (Debian): use the variables, never the broken Kokkos::kokkos target.
  set(_libs "")
  foreach(_name IN LISTS KokkosKernels_LIBRARIES)
    find_library(_perksolve_lib_${_name} NAMES ${_name} HINTS ${KokkosKernels_LIBRARY_DIRS} NO_DEFAULT_PATH)
    if(NOT _perksolve_lib_${_name})
      find_library(_perksolve_lib_${_name} NAMES ${_name})
    endif()
    if(NOT _perksolve_lib_${_name})
      message(FATAL_ERROR "perksolve: Kokkos Kernels library '${_name}' not found in ${KokkosKernels_LIBRARY_DIRS}")
    endif()
    list(APPEND _libs ${_perksolve_lib_${_name}})
  endforeach()
  target_include_directories(perksolve_kokkos_stack SYSTEM INTERFACE ${KokkosKernels_INCLUDE_DIRS})
  target_link_libraries(perksolve_kokkos_stack INTERFACE ${_libs} ${KokkosKernels_TPL_LIBRARIES} ${CMAKE_DL_LIBS})
  set(_perksolve_kokkos_flavour "Trilinos-packaged (${KokkosKernels_INCLUDE_DIRS})")
else()
  find_package(Kokkos QUIET)
  if(TARGET Kokkos::kokkos)
    message(FATAL_ERROR "perksolve: found Kokkos but not Kokkos Kernels; install Kokkos Kernels "
                        "(Debian: libtrilinos-kokkos-kernels-dev) or point CMAKE_PREFIX_PATH at it")
  endif()
  message(FATAL_ERROR "perksolve: Kokkos Kernels not found. On Debian run scripts/setup.sh "
                      "(libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev), or set CMAKE_PREFIX_PATH to an upstream install.")
endif()
message(STATUS "perksolve: Kokkos stack: ${_perksolve_kokkos_flavour}")
