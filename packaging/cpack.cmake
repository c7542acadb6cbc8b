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
# The X11 platform plugin ships in libqt6gui6, which dpkg-shlibdeps finds; Wayland's and a font are extras.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, fonts-dejavu-core, binutils")   # binutils: objdump, nm, readelf for disasm
include(CPack)
