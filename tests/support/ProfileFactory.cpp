#include "ProfileFactory.h"

#include "formats/ProfileInput.h"
#include "profile.pb.h"

#include <QFile>

#include <zlib.h>

#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

namespace qflame::test {

namespace pb = perftools::profiles;

namespace {

class Writer {
public:
    int64_t str(const std::string &s)
    {
        auto [it, inserted] = m_strings.try_emplace(s, m_out.string_table_size());
        if (inserted)
            m_out.add_string_table(s);
        return it->second;
    }

    // One location per distinct frame text, one function per distinct (name, file).
    uint64_t location(const std::string &frame)
    {
        auto found = m_locations.find(frame);
        if (found != m_locations.end())
            return found->second;
        std::string name = frame, file;
        int64_t line = 0;
        const size_t at = frame.find('@');
        if (at != std::string::npos) {
            name = frame.substr(0, at);
            const std::string where = frame.substr(at + 1);
            const size_t colon = where.rfind(':');
            if (colon == std::string::npos)
                throw std::invalid_argument("frame '" + frame + "' needs name@file:line");
            file = where.substr(0, colon);
            line = std::stoll(where.substr(colon + 1));
        }
        auto [fn, newFunction] = m_functions.try_emplace(name + '\0' + file, m_out.function_size() + 1);
        if (newFunction) {
            pb::Function *f = m_out.add_function();
            f->set_id(fn->second);
            f->set_name(str(name));
            f->set_system_name(str(name));
            f->set_filename(str(file));
        }
        pb::Location *loc = m_out.add_location();
        loc->set_id(uint64_t(m_out.location_size()));
        loc->set_address(0x1000 + 0x10 * loc->id());
        pb::Line *ln = loc->add_line();
        ln->set_function_id(fn->second);
        ln->set_line(line);
        m_locations.emplace(frame, loc->id());
        return loc->id();
    }

    pb::Profile &out() { return m_out; }

private:
    pb::Profile m_out;
    std::map<std::string, int64_t> m_strings;
    std::map<std::string, uint64_t> m_functions;
    std::map<std::string, uint64_t> m_locations;
};

}   // namespace

std::string pprofBytes(const FoldedProfile &spec)
{
    Writer w;
    pb::Profile &p = w.out();
    w.str("");
    for (const auto &[type, unit] : spec.sampleTypes) {
        pb::ValueType *vt = p.add_sample_type();
        vt->set_type(w.str(type));
        vt->set_unit(w.str(unit));
    }
    p.set_duration_nanos(spec.durationNanos);
    p.set_period(spec.period);
    if (!spec.periodType.first.empty()) {
        p.mutable_period_type()->set_type(w.str(spec.periodType.first));
        p.mutable_period_type()->set_unit(w.str(spec.periodType.second));
    }
    std::istringstream lines(spec.folded);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        // Values are the last sampleTypes.size() space-separated fields.
        std::vector<int64_t> values(spec.sampleTypes.size());
        size_t end = line.find_last_not_of(' ') + 1;
        for (size_t i = values.size(); i-- > 0;) {
            const size_t space = line.rfind(' ', end - 1);
            if (space == std::string::npos)
                throw std::invalid_argument("folded line without enough values: " + line);
            values[i] = std::stoll(line.substr(space + 1, end - space - 1));
            end = line.find_last_not_of(' ', space) + 1;
        }
        const std::string stack = line.substr(0, end);
        std::vector<std::string> frames;
        std::string frame;
        std::istringstream parts(stack);
        while (std::getline(parts, frame, ';'))
            frames.push_back(frame);
        pb::Sample *s = p.add_sample();
        for (size_t i = frames.size(); i-- > 0;)   // pprof lists the leaf first
            s->add_location_id(w.location(frames[i]));
        for (int64_t v : values)
            s->add_value(v);
    }
    std::string bytes;
    if (!p.SerializeToString(&bytes))
        throw std::invalid_argument("could not serialise the profile");
    return bytes;
}

std::shared_ptr<const Profile> profileFromFolded(const FoldedProfile &spec, const std::string &sourceName)
{
    return readPprof(pprofBytes(spec), sourceName);
}

std::shared_ptr<const Profile> profileFromFolded(const std::string &folded, const std::string &type,
                                                 const std::string &unit, const std::string &sourceName)
{
    FoldedProfile spec;
    spec.sampleTypes = {{type, unit}};
    spec.folded = folded;
    return profileFromFolded(spec, sourceName);
}

std::string fileBytes(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

std::string gzipBytes(const std::string &raw)
{
    return deflateBytes(raw, 15 + 16, 6);
}

std::string deflateBytes(const std::string &raw, int windowBits, int level)
{
    z_stream zs{};
    deflateInit2(&zs, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, uLong(raw.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.data()));
    zs.avail_in = uInt(raw.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

std::vector<Profile> splitProfile(const Profile &profile, size_t parts, uint32_t seed)
{
    int countType = -1;
    for (size_t i = 0; i < profile.sampleTypes.size(); ++i)
        if (profile.typeName(i) == "samples" && profile.unitName(i) == "count")
            countType = int(i);
    if (countType < 0 || parts == 0)
        qFatal("splitProfile: %s has no samples/count type", profile.sourceName.c_str());
    std::mt19937 random(seed);
    std::uniform_int_distribution<size_t> part(0, parts - 1);
    std::vector<Profile> out(parts, profile);
    const size_t types = profile.sampleTypes.size();
    for (Profile &p : out) {
        p.durationNanos = profile.durationNanos / int64_t(parts);
        p.timeNanos = profile.timeNanos + p.durationNanos * int64_t(&p - out.data());
        p.values = SampleValues(std::vector<int64_t>(p.values.size(), 0));
    }
    for (size_t s = 0; s < profile.sampleCount(); ++s) {
        const int64_t count = profile.value(s, size_t(countType));
        std::vector<int64_t> dealt(parts, 0);
        for (int64_t c = 0; c < count; ++c)
            ++dealt[part(random)];
        for (size_t o = 0; o < parts; ++o)
            for (size_t t = 0; t < types; ++t)
                out[o].values.setWidening(s * types + t, count > 0 ? profile.value(s, t) / count * dealt[o] : 0);
    }
    return out;
}

}   // namespace qflame::test
