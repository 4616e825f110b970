# Install rules and a package config so plug-ins can build out of tree with find_package(perksolve).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS perksolve perksolve_app perksolve_kokkos_stack EXPORT perksolveTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/framework ${PROJECT_SOURCE_DIR}/solvers
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perksolve FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/generated/perksolve_build_config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perksolve)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/PerksolveKokkos.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perksolve)
install(EXPORT perksolveTargets NAMESPACE perksolve:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perksolve)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/perksolveConfig.cmake.in
  ${PROJECT_BINARY_DIR}/perksolveConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perksolve)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/perksolveConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/perksolveConfig.cmake ${PROJECT_BINARY_DIR}/perksolveConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perksolve)

# Build-tree export: find_package(perksolve) works with perksolve_DIR=<build dir>.
export(EXPORT perksolveTargets NAMESPACE perksolve:: FILE ${PROJECT_BINARY_DIR}/perksolveTargets.cmake)
file(WRITE ${PROJECT_BINARY_DIR}/perksolveBuildTreeKokkos.cmake
     "include(\"${PROJECT_SOURCE_DIR}/cmake/PerksolveKokkos.cmake\")\n")
