#include "tree/FrameTable.h"

#include <algorithm>
#include <cstdio>
#include <functional>

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

namespace {

uint32_t mix32(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return uint32_t(h);
}

// The slot for an id with hash h that satisfies same(id), or the empty slot where such an id goes.
template <typename Same>
uint32_t &probe(std::vector<uint32_t> &slots, const std::vector<uint32_t> &hashes, uint32_t h, Same same)
{
    const size_t mask = slots.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t &slot = slots[i];
        if (slot == 0 || (hashes[slot - 1] == h && same(slot - 1)))
            return slot;
    }
}

// Makes the table `size` slots (a power of two) holding the ids from `first` on.
void rehash(std::vector<uint32_t> &slots, const std::vector<uint32_t> &hashes, uint32_t first, size_t size)
{
    std::vector<uint32_t> bigger(size, 0);
    const size_t mask = size - 1;
    for (uint32_t id = first; id < hashes.size(); ++id) {
        size_t i = hashes[id] & mask;
        while (bigger[i] != 0)
            i = (i + 1) & mask;
        bigger[i] = id + 1;
    }
    slots.swap(bigger);
}

// Keeps the table at most half full before one more insertion; ids from `first` on are in it.
void reserveOneMore(std::vector<uint32_t> &slots, const std::vector<uint32_t> &hashes, uint32_t first)
{
    if ((hashes.size() + 1) * 2 <= slots.size())
        return;
    rehash(slots, hashes, first, std::max<size_t>(64, slots.size() * 2));
}

}   // namespace

StringPool::StringPool()
{
    intern("");
}

void StringPool::reserveMore(size_t more)
{
    const size_t strings = m_hashes.size() + more;
    if (strings <= m_hashes.capacity())
        return;
    m_hashes.reserve(std::max(strings, 2 * m_hashes.capacity()));
    size_t slots = std::max<size_t>(64, m_slots.size());
    while (slots < strings * 2)   // at most half full, as reserveOneMore keeps it
        slots *= 2;
    if (slots > m_slots.size())
        rehash(m_slots, m_hashes, 0, slots);
}

StrId StringPool::intern(std::string_view s)
{
    reserveOneMore(m_slots, m_hashes, 0);
    const uint32_t h = mix32(std::hash<std::string_view>()(s));
    uint32_t &slot = probe(m_slots, m_hashes, h, [&](uint32_t id) { return m_strings[id] == s; });
    if (slot == 0) {
        m_strings.emplace_back(s);
        m_hashes.push_back(h);
        slot = uint32_t(m_strings.size());
    }
    return slot - 1;
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

uint32_t FrameTable::hash(const FrameKey &k)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t v : {uint64_t(k.name), uint64_t(k.file), uint64_t(k.line), k.address, uint64_t(k.objfile),
                       uint64_t(k.startLine)}) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    }
    return mix32(h);
}

FrameId FrameTable::intern(const FrameKey &key, const Frame &extras)
{
    // A bare function name (nearly every frame at function granularity) is found by its string's id, without
    // hashing and probing: those were a third of making the frames of a profile of 23,000 functions. It is its
    // own label: no second string.
    if (key.name != 0 && key == FrameKey{.name = key.name}) {
        if (key.name >= m_byName.size())
            m_byName.resize(std::max<size_t>(key.name + 1, m_byName.size() * 2), 0);
        uint32_t &slot = m_byName[key.name];
        if (slot == 0)
            slot = add(key, extras, key.name) + 1;
        return slot - 1;
    }
    reserveOneMore(m_slots, m_hashes, 0);
    const uint32_t h = hash(key);
    uint32_t &slot = probe(m_slots, m_hashes, h, [&](uint32_t entry) { return m_frames[m_keyed[entry]].key == key; });
    if (slot == 0) {
        m_keyed.push_back(add(key, extras, m_strings.intern(printableName(m_strings, key))));
        m_hashes.push_back(h);
        slot = uint32_t(m_keyed.size());
    }
    return m_keyed[slot - 1];
}

void FrameTable::reserveMore(size_t more)
{
    if (m_frames.size() + more > m_frames.capacity())
        m_frames.reserve(std::max(m_frames.size() + more, 2 * m_frames.capacity()));
    m_strings.reserveMore(more);
}

FrameId FrameTable::add(const FrameKey &key, const Frame &extras, StrId label)
{
    Frame f = extras;
    f.key = key;
    f.label = label;
    m_frames.push_back(f);
    return FrameId(m_frames.size() - 1);
}

std::vector<uint32_t> FrameTable::labelRanks() const
{
    // Sort fixed-size keys (sortPrefix), and only on equal prefixes the whole labels, then the ids.
    struct Key {
        uint64_t prefix;
        const std::string *label;
        FrameId id;
    };
    std::vector<Key> keys(m_frames.size());
    for (FrameId f = 0; f < m_frames.size(); ++f) {
        const std::string &s = label(f);
        keys[f] = {sortPrefix(s), &s, f};
    }
    std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
        if (a.prefix != b.prefix)
            return a.prefix < b.prefix;
        const int c = a.label->compare(*b.label);
        return c != 0 ? c < 0 : a.id < b.id;
    });
    std::vector<uint32_t> rank(m_frames.size());
    for (uint32_t i = 0; i < keys.size(); ++i)
        rank[keys[i].id] = i;
    return rank;
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
