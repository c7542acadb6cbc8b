// What the perf script tests compare: a profile's sample types as "type/unit ...", and flat and cum per function
// of one sample type, from the model's flat table.
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <utility>

namespace qflame::test {

inline QString types(const Profile &p)
{
    QStringList out;
    for (size_t t = 0; t < p.sampleTypes.size(); ++t)
        out << QString::fromStdString(p.typeName(t) + "/" + p.unitName(t));
    return out.join(QLatin1Char(' '));
}

// flat and cum per function name of one sample type, from the model.
inline std::map<QString, std::pair<int64_t, int64_t>> flatCum(const std::shared_ptr<const Profile> &p, size_t type)
{
    std::map<QString, std::pair<int64_t, int64_t>> out;
    const auto table = FlatTable::compute({p}, type, BuildOptions{});
    for (size_t i = 0; i < table->rows().size(); ++i)
        out[QString::fromUtf8(table->label(i).data(), qsizetype(table->label(i).size()))] = {table->rows()[i].flat,
                                                                                            table->rows()[i].cum};
    return out;
}

}   // namespace qflame::test
