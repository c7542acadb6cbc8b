# The Debian package: `bash packaging/setup.sh package` (or cpack -G DEB in a build directory).
# Library dependencies come from dpkg-shlibdeps (package dpkg-dev); the rest are named here.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME qflame)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "flame graph and diff viewer for pprof profiles")
set(CPACK_PACKAGE_DESCRIPTION "qflame shows CPU, memory and other profiles in the pprof format as an interactive
flame graph beside a table of the costliest functions, with the numbers of go tool pprof, and compares two
profiles. It also reads folded stacks and Pyroscope flamebearer JSON, exports pprof, folded stacks and CSV, and
has command-line verbs for scripts.")
# The project has no mailing address yet; .invalid is the reserved domain for exactly that.
set(CPACK_PACKAGE_CONTACT "qflame developers <qflame@users.noreply.invalid>")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The window loads Graphviz when it first lays a call graph out (model/graph/GraphvizOnDemand.cpp), so no binary
# lists it among its needed libraries and dpkg-shlibdeps cannot see it: named here, as the package that ships the
# library this build found, at its upstream version or later.
pkg_get_variable(QFLAME_GVC_LIBDIR libgvc libdir)
execute_process(COMMAND dpkg-query -S "${QFLAME_GVC_LIBDIR}/libgvc.so.6" OUTPUT_VARIABLE _gvc_owner
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
string(REGEX REPLACE ":.*" "" _gvc_package "${_gvc_owner}")
if(_gvc_package)
  execute_process(COMMAND dpkg-query -W -f=\${Version} "${_gvc_package}" OUTPUT_VARIABLE _gvc_version ERROR_QUIET)
  string(REGEX REPLACE "^[0-9]+:|-[^-]*$" "" _gvc_version "${_gvc_version}")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_gvc_package} (>= ${_gvc_version})")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgvc6")   # Debian 12's, where dpkg does not know the file
endif()
# The X11 platform plugin ships in libqt6gui6, which dpkg-shlibdeps finds; Wayland's and a font are extras.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, fonts-dejavu-core, binutils")   # binutils: objdump, nm, readelf for disasm
include(CPack)
