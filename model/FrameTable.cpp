#include "FrameTable.h"

#include <cstdio>

namespace qflame {

const char *granularityName(Granularity g)
{
    switch (g) {
    case Granularity::Functions: return "functions";
    case Granularity::Lines: return "lines";
    case Granularity::Addresses: return "addresses";
    }
    return "functions";
}

bool parseGranularity(std::string_view text, Granularity *out)
{
    for (Granularity g : {Granularity::Functions, Granularity::Lines, Granularity::Addresses})
        if (text == granularityName(g)) {
            *out = g;
            return true;
        }
    return false;
}

StringPool::StringPool()
{
    intern("");
}

StrId StringPool::intern(std::string_view s)
{
    auto [it, inserted] = m_ids.try_emplace(std::string(s), StrId(m_byId.size()));
    if (inserted)
        m_byId.push_back(&it->first);   // node-based map: the key's address is stable
    return it->second;
}

namespace {

// Go's filepath.Base.
std::string_view baseName(std::string_view path)
{
    if (path.empty())
        return ".";
    while (path.size() > 1 && path.back() == '/')
        path.remove_suffix(1);
    if (path == "/")
        return path;
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// pprof's NodeInfo.NameComponents joined by spaces (graph.go), so labels equal pprof's node names.
std::string printableName(const StringPool &s, const FrameKey &k)
{
    std::string out;
    auto add = [&](std::string_view part) {
        if (!out.empty())
            out += ' ';
        out += part;
    };
    if (k.address != 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(k.address));
        add(buf);
    }
    const std::string &name = s.str(k.name);
    if (!name.empty())
        add(name);
    if (k.line != 0)
        add(s.str(k.file) + ":" + std::to_string(k.line));
    else if (k.file != 0)
        add(s.str(k.file));
    else if (!name.empty())
        ;
    else if (k.objfile != 0)
        add("[" + std::string(baseName(s.str(k.objfile))) + "]");
    else
        add("<unknown>");
    return out;
}

}   // namespace

FrameTable::FrameTable()
{
    Frame root;
    root.label = m_strings.intern("root");
    m_frames.push_back(root);
}

size_t FrameTable::KeyHash::operator()(const FrameKey &k) const
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t v : {uint64_t(k.name), uint64_t(k.file), uint64_t(k.line), k.address, uint64_t(k.objfile),
                       uint64_t(k.startLine)}) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    }
    return size_t(h);
}

FrameId FrameTable::intern(const FrameKey &key, const Frame &extras)
{
    auto [it, inserted] = m_ids.try_emplace(key, FrameId(m_frames.size()));
    if (inserted) {
        Frame f = extras;
        f.key = key;
        f.label = m_strings.intern(printableName(m_strings, key));
        m_frames.push_back(f);
    }
    return it->second;
}

std::string cleanPath(std::string_view path)
{
    if (path.empty())
        return ".";
    const bool rooted = path.front() == '/';
    std::vector<std::string_view> parts;
    size_t i = 0;
    while (i < path.size()) {
        size_t j = path.find('/', i);
        if (j == std::string_view::npos)
            j = path.size();
        std::string_view part = path.substr(i, j - i);
        i = j + 1;
        if (part.empty() || part == ".")
            continue;
        if (part == "..") {
            if (!parts.empty() && parts.back() != "..")
                parts.pop_back();
            else if (!rooted)
                parts.push_back(part);
            continue;
        }
        parts.push_back(part);
    }
    std::string out = rooted ? "/" : "";
    for (size_t k = 0; k < parts.size(); ++k) {
        if (k)
            out += '/';
        out += parts[k];
    }
    return out.empty() ? "." : out;
}

}   // namespace qflame
