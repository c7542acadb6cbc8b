// A valid SelectMergeStacktraces answer that is slow to decode: `columns` stacks `depth` deep in which every node
// is a function of its own. Served by ThreadedFaultServer for the GUI stall test and decoded by the qryn
// benchmark (bench/bench_qryn.cpp), so both measure the same answer.
#pragma once

#include "querier.pb.h"

#include <QByteArray>

#include <cstdint>
#include <string>

namespace qflame::test {

inline QByteArray largeFlamegraphBody(int columns, int depth)
{
    // Column c, depth d (1-based) sits at x = c * depth + d - 1 with total depth - d + 1: inside its parent, and
    // the previous node of its level ends at c * depth, so every offset is d - 1.
    querier::v1::SelectMergeStacktracesResponse r;
    querier::v1::FlameGraph *g = r.mutable_flamegraph();
    g->add_names("total");
    for (int c = 0; c < columns; ++c)
        for (int d = 1; d <= depth; ++d)
            g->add_names("github.com/example/service/pkg" + std::to_string(c) + ".(*Handler).step" + std::to_string(d));
    const int64_t total = int64_t(columns) * depth;
    auto *root = g->add_levels();
    for (int64_t v : {int64_t(0), total, int64_t(0), int64_t(0)})
        root->add_values(v);
    for (int d = 1; d <= depth; ++d) {
        auto *level = g->add_levels();
        for (int c = 0; c < columns; ++c) {
            level->add_values(d - 1);
            level->add_values(depth - d + 1);
            level->add_values(1);
            level->add_values(1 + int64_t(c) * depth + (d - 1));
        }
    }
    g->set_total(total);
    g->set_max_self(1);
    const std::string bytes = r.SerializeAsString();
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

}   // namespace qflame::test
