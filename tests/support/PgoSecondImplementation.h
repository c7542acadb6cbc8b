// A second implementation of Go's PGO edges for tst_pgo, written from the rules alone and sharing no code with
// model/pgo: it inflates with zlib, parses with the generated protobuf class, and walks ids with std::map.
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace perftools::profiles {
class Profile;
}

namespace qflame::test {

// caller, callee, offset, weight, hot
using SecondEdge = std::tuple<std::string, std::string, int64_t, int64_t, bool>;

struct SecondEdges {
    std::vector<SecondEdge> edges;   // weight descending, then caller, callee, offset
    bool startLines = false;         // some node that carries weight has a start line
};

// The bytes of a file, gunzipped when they start with gzip's magic.
std::string inflatedFile(const QString &path);

SecondEdges secondImplementationEdges(const perftools::profiles::Profile &p, double threshold);

}   // namespace qflame::test
