// What the PGO and source tests share: a pprof message built field by field, and the real binary run with
// arguments.
#pragma once

#include "formats/ProfileInput.h"
#include "RunQflame.h"

#include "profile.pb.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qflame::pgotest {

namespace pb = perftools::profiles;
using qflame::test::Run;
using qflame::test::runQflame;
using qflame::test::runQflameIn;

// A pprof message built field by field: functions with start lines, locations with inline lines, samples.
using SampleTypes = std::vector<std::pair<std::string, std::string>>;   // (type, unit)

class Builder {
public:
    explicit Builder(const SampleTypes &types = {{"samples", "count"}})
    {
        str("");
        for (const auto &[type, unit] : types) {
            auto *t = m_p.add_sample_type();
            t->set_type(str(type)), t->set_unit(str(unit));
        }
    }
    int64_t str(const std::string &s)
    {
        m_p.add_string_table(s);
        return m_p.string_table_size() - 1;
    }
    uint64_t function(const std::string &name, int64_t startLine, const std::string &file = {})
    {
        auto *f = m_p.add_function();
        f->set_id(uint64_t(m_p.function_size())), f->set_name(str(name)), f->set_start_line(startLine);
        if (!file.empty())
            f->set_filename(str(file));
        return f->id();
    }
    // Lines innermost first, as pprof stores them: {function id, line}.
    uint64_t location(uint64_t address, const std::vector<std::pair<uint64_t, int64_t>> &lines)
    {
        auto *l = m_p.add_location();
        l->set_id(uint64_t(m_p.location_size())), l->set_address(address);
        for (const auto &[fn, line] : lines) {
            auto *ln = l->add_line();
            ln->set_function_id(fn), ln->set_line(line);
        }
        return l->id();
    }
    // Locations leaf first.
    void sample(const std::vector<uint64_t> &locations, const std::vector<int64_t> &values)
    {
        auto *s = m_p.add_sample();
        for (uint64_t l : locations)
            s->add_location_id(l);
        for (int64_t v : values)
            s->add_value(v);
    }
    pb::Profile &message() { return m_p; }
    const pb::Profile &message() const { return m_p; }
    std::shared_ptr<const qflame::Profile> profile(const std::string &name = "test") const
    {
        return readPprof(m_p.SerializeAsString(), name);
    }

private:
    pb::Profile m_p;
};

inline QString writeProfile(const QTemporaryDir &dir, const char *name, const Builder &b)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(b.message().SerializeAsString())) < 0)
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

}   // namespace qflame::pgotest
