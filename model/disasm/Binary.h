// The binary a profile's mapping names: found by the mapping's path, an explicit file, or a folder searched by
// build id; its build ids (GNU, from readelf -n, and Go's), its ELF type (for pprof's object addresses) and its
// symbols (nm), each read by binutils. A missing binary, a build id that does not match and a stripped binary are
// each one clear ProfileError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct BinaryInfo {
    std::string path;
    std::string gnuBuildId;   // hex, as pprof's mappings carry it; empty when the binary has none
    std::string goBuildId;    // Go's build id (.note.go.buildid); empty for other binaries
    bool sharedObject = false; // ET_DYN: PIE executable or shared library; its addresses are relocated
    struct Segment {
        uint64_t offset = 0, vaddr = 0, fileSize = 0;
    };
    std::vector<Segment> executable;   // the executable PT_LOAD segments (readelf -lW)
    // A file offset in an executable segment as the address it is loaded at (the offset itself when in none).
    uint64_t offsetToAddress(uint64_t offset) const;
    bool inExecutableOffsets(uint64_t offset) const;
    bool inExecutableAddresses(uint64_t address) const;
};

// Reads the ELF header and the notes. Throws ProfileError when the file is missing or not ELF.
BinaryInfo readBinaryInfo(const std::string &path);

// Whether the binary is the one a mapping with `buildId` (possibly empty: not checked) was profiled from.
bool buildIdMatches(const BinaryInfo &b, const std::string &buildId);

// Where to look for the binary of a mapping (pprof's file and build id).
struct BinarySearch {
    std::string explicitPath;              // --binary: a file (used as is, its build id checked) or a folder
    std::vector<std::string> folders;      // searched by build id, then by the mapping's base name
};

// The binary for a mapping, its build id checked. Throws ProfileError with one line saying what is missing or
// which build ids differ.
BinaryInfo locateBinary(const std::string &mappingFile, const std::string &buildId, const BinarySearch &search);

struct Symbol {
    std::vector<std::string> names;   // every name at the address, as nm prints them (mangled)
    uint64_t start = 0, end = 0;      // [start, end): end from nm's size, else the next symbol's address
};

// The binary's defined symbols by address (nm -n -S). Throws ProfileError naming the binary as stripped when
// it has none.
std::vector<Symbol> readSymbols(const BinaryInfo &binary);

}   // namespace qflame
