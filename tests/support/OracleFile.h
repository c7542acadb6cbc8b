// Reads what `go tool pprof -top` printed (the oracle files beside the corpus) into exact rows.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace qflame::test {

struct OracleRow {
    int64_t flat = 0;
    int64_t cum = 0;
    std::string name;   // as printed, with " (inline)" / " (partial-inline)"
    bool operator<(const OracleRow &o) const
    {
        return std::tie(name, flat, cum) < std::tie(o.name, o.flat, o.cum);
    }
    bool operator==(const OracleRow &o) const = default;
};

// Parses the table of a -top report. Names may hold newlines (a hand-made test profile has a function named
// with every byte), so a line that is not a row continues the previous row's name.
std::vector<OracleRow> parseTopOracle(const QByteArray &text, QString *error);

}   // namespace qflame::test
