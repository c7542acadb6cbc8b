// Finds the source file a profile names, first as go tool pprof does (-source_path, -trim_path), then where Go
// keeps sources pprof does not look for: GOROOT (the local one for the profile's, guessed from its runtime paths,
// or for -trimpath builds' "runtime/proc.go") and the module cache (module@version paths). Reads it bounded: a
// file over kMaxSourceBytes or with a NUL byte in it is refused with a reason, never shown as text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace qflame {

inline constexpr uint64_t kMaxSourceBytes = uint64_t(64) << 20;

struct SourcePaths {
    std::vector<std::string> searchPath;   // --source-path DIR[:DIR]; empty: the working directory
    std::vector<std::string> trimPaths;    // --trim-path PREFIX[:PREFIX]
    std::string goroot;                    // this machine's GOROOT; empty: none known
    std::string moduleCache;               // this machine's GOMODCACHE; empty: none known
    std::string workingDirectory;          // for an empty searchPath
};

// GOROOT from $GOROOT, else `go env GOROOT` (go on PATH or Debian's /usr/lib/go-*/bin/go); GOMODCACHE from
// $GOMODCACHE, else $GOPATH/pkg/mod, else ~/go/pkg/mod; the working directory.
SourcePaths defaultSourcePaths();

struct SourceFile {
    std::string path;                      // the file read; empty when none was
    std::vector<std::string> lines;        // without their line ends ("\n", "\r\n")
    std::string error;                     // why none was read: "could not find ...", "binary data ..."
    // Where qflame looked beyond pprof to find it: "" (pprof's own search), "GOROOT", "the module cache". A
    // GOROOT of another Go version than the profiled program's has other lines: the listing says where it read.
    std::string foundIn;
};

class SourceFinder {
public:
    explicit SourceFinder(SourcePaths paths);

    // The path pprof groups and shows a profile's file name by: -trim_path's prefixes (or, without them, the
    // part after a search directory's base name), /proc/self/cwd/ cut.
    std::string displayPath(const std::string &profilePath) const;

    // Learns the GOROOT the profile was built with from its file names (the prefix of ".../src/runtime/*.go").
    void learnProfileGoroot(const std::vector<std::string> &profilePaths);
    const std::string &profileGoroot() const { return m_profileGoroot; }

    // The file for a displayed path, read (cached per path).
    const SourceFile &read(const std::string &displayed);

private:
    struct Candidate {
        std::string path, foundIn;
    };
    std::vector<Candidate> candidates(const std::string &displayed) const;

    SourcePaths m_paths;
    std::string m_profileGoroot;
    std::map<std::string, SourceFile> m_cache;
};

}   // namespace qflame
