#include "ProfileGenerator.h"

#include "profile.pb.h"
#include "tree/FlatHashMap.h"

#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace qflame::bench {

namespace pb = perftools::profiles;

namespace {

// xoshiro256** seeded through splitmix64: std::mt19937 would do, but the standard distributions are not the
// same across standard libraries, and the files must be.
class Rng {
public:
    explicit Rng(uint64_t seed)
    {
        for (uint64_t &s : m_s) {
            seed += 0x9e3779b97f4a7c15ull;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            s = z ^ (z >> 31);
        }
    }
    uint64_t next()
    {
        const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
    bool chance(uint64_t num, uint64_t den) { return below(den) < num; }
    // Index i of [0, n) with probability ~ (1 - q) q^i, q = num/den: the first callee of a function is its hot
    // path, the others ever rarer, with integers only.
    uint64_t skewed(uint64_t n, uint64_t num = 2, uint64_t den = 5)
    {
        uint64_t i = 0;
        while (i + 1 < n && chance(num, den))
            ++i;
        return i;
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t m_s[4];
};

uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t z = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct Func {
    std::string name, file;
    int64_t startLine = 0;
    uint32_t layer = 0;
    uint32_t sites = 1;          // call sites / sampled PCs in the body, each with its own line and address
    uint32_t mapping = 0;        // index into kMappings
    uint64_t base = 0;           // entry address, relative to the mapping
    bool inlined = false;        // small: inlined at every call site
    bool recursive = false;      // calls itself directly now and then
    std::vector<uint32_t> callees;
    uint64_t id = 0;             // pprof function id, given on first use
};

constexpr uint32_t kLayers = 40;
constexpr uint32_t kMaxStack = 300;
constexpr uint32_t kMaxSites = 8;
struct MappingInfo {
    const char *file;
    const char *buildId;
    uint64_t start, limit;
};
constexpr MappingInfo kMappings[] = {
    {"/usr/local/bin/acme-server", "3b9d2f8e41c7a05b6e1d9c2a7f4b8e0d5c3a1f97", 0x400000, 0x7ffffff},
    {"/lib/x86_64-linux-gnu/libc.so.6", "ee4e4b4a5d1c2c7e9a0c6b1b8f3d2e7a9c4b5d61", 0x7f0000000000, 0x7f00001fffff},
};

// A made-up program: what every sample of a profile is drawn from.
class Program {
public:
    Program(uint64_t seed, uint32_t functions)
    {
        Rng rng(seed);
        auto word = [&](int syllables) {
            static const char *const parts[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zen", "dor",
                                                "pex", "qua", "bri", "fol", "gar", "hin", "jup", "kel", "mor", "nix",
                                                "ost", "pra", "sul", "tam", "ur", "wex", "yol", "bax", "cor", "dun"};
            std::string w;
            for (int i = 0; i < syllables; ++i)
                w += parts[rng.below(std::size(parts))];
            return w;
        };
        auto capital = [](std::string s) {
            s[0] = char(s[0] - 'a' + 'A');
            return s;
        };
        // The runtime: roots of every stack and the allocation tail (indexes fixed, see below).
        static const std::pair<const char *, const char *> runtime[] = {
            {"runtime.goexit", "asm_amd64.s"}, {"runtime.main", "proc.go"}, {"main.main", ""},
            {"runtime.mallocgc", "malloc.go"}, {"runtime.newobject", "malloc.go"}, {"runtime.makeslice", "slice.go"},
            {"runtime.growslice", "slice.go"}, {"runtime.mapassign_faststr", "map_faststr.go"},
            {"runtime.(*mcache).nextFree", "malloc.go"}, {"runtime.(*mcache).refill", "mcache.go"},
            {"runtime.(*mcentral).cacheSpan", "mcentral.go"}, {"runtime.memclrNoHeapPointers", "memclr_amd64.s"}};
        for (auto [name, file] : runtime) {
            Func f;
            f.name = name;
            f.file = std::string("/usr/local/go/src/runtime/") + file;
            f.startLine = int64_t(100 + rng.below(4000));
            f.sites = 1 + uint32_t(rng.below(4));
            f.base = 0x1000 + m_funcs.size() * 0x400;
            m_names.insert(f.name);
            m_funcs.push_back(std::move(f));
        }
        m_funcs[kMainMain].file = "/src/acme/cmd/server/main.go";
        // Packages of 20-60 functions, files of 3-12 functions, spread over the call layers; a few percent are
        // C functions in libc reached through cgo.
        std::string pkg, file, type;
        uint32_t pkgLeft = 0, fileLeft = 0, pkgLayer = 0;
        while (m_funcs.size() < functions) {
            Func f;
            if (pkgLeft == 0) {
                pkgLeft = 20 + uint32_t(rng.below(41));
                // One draw per statement: the order of operands of + is unspecified, the files must not be.
                const bool github = rng.chance(1, 4);
                const std::string org = word(2);
                const std::string repo = github ? word(2) : std::string();
                const std::string leaf = word(2 + int(rng.below(2)));
                pkg = (github ? "github.com/" + org + "/" + repo : "acme.dev/" + org) + "/" + leaf;
                pkgLayer = uint32_t(rng.below(kLayers));
            }
            if (fileLeft == 0) {
                fileLeft = 3 + uint32_t(rng.below(10));
                file = "/src/" + pkg + "/" + word(2) + ".go";
                type = capital(word(2));
            }
            --pkgLeft;
            --fileLeft;
            const uint64_t form = rng.below(10);
            if (form < 4)
                f.name = pkg + ".(*" + type + ")." + capital(word(2 + int(rng.below(2))));
            else if (form < 5) {
                const std::string outer = capital(word(2));
                f.name = pkg + "." + outer + ".func" + std::to_string(1 + rng.below(5));
            }
            else
                f.name = pkg + "." + capital(word(2 + int(rng.below(2))));
            f.file = file;
            f.startLine = int64_t(10 + rng.below(3000));
            // Packages sit around one layer; their functions spread over a few layers near it.
            f.layer = std::min<uint32_t>(kLayers - 1, pkgLayer + uint32_t(rng.below(6)));
            f.sites = 1 + uint32_t(rng.below(kMaxSites));
            f.inlined = f.layer > 0 && rng.chance(15, 100);
            f.recursive = !f.inlined && rng.chance(2, 100);
            f.mapping = rng.chance(3, 100) ? 1 : 0;
            if (f.mapping == 1) {   // C: no package, no file (libc has no line tables here)
                const std::string first = word(2);
                f.name = "__" + first + "_" + word(2);
                f.file.clear();
            }
            // pprof merges functions by name: a drawn name that exists already gets a number.
            if (!m_names.insert(f.name).second) {
                f.name += std::to_string(m_funcs.size());
                m_names.insert(f.name);
            }
            f.base = 0x1000 + m_funcs.size() * 0x400;
            m_funcs.push_back(std::move(f));
        }
        // Layers, then callees: functions one to three layers further down, now and then a call back up.
        std::vector<std::vector<uint32_t>> byLayer(kLayers);
        for (uint32_t i = kFirstUser; i < m_funcs.size(); ++i)
            byLayer[m_funcs[i].layer].push_back(i);
        for (uint32_t i = kFirstUser; i < m_funcs.size(); ++i) {
            Func &f = m_funcs[i];
            // Most functions are plumbing with one callee; a few dispatch to many.
            const uint64_t kind = rng.below(100);
            const uint32_t degree = kind < 55 ? 1 : kind < 85 ? 2 + uint32_t(rng.below(2)) : 4 + uint32_t(rng.below(7));
            for (uint32_t k = 0; k < degree; ++k) {
                uint32_t layer = f.layer + 1 + uint32_t(rng.below(3));
                if (rng.chance(3, 100))
                    layer = uint32_t(rng.below(f.layer + 1));
                if (layer >= kLayers || byLayer[layer].empty())
                    continue;
                f.callees.push_back(byLayer[layer][rng.below(byLayer[layer].size())]);
            }
        }
        for (uint32_t l = 0; l < 3; ++l)
            m_entries.insert(m_entries.end(), byLayer[l].begin(), byLayer[l].end());
        if (m_entries.empty())
            m_entries.push_back(kFirstUser);
    }

    // One stack, root first, with the function and call site of every frame.
    void walk(Rng &rng, std::vector<uint32_t> &funcs, std::vector<uint32_t> &sites) const
    {
        funcs.clear();
        if (rng.chance(1, 10)) {
            funcs.push_back(kRuntimeMain);
            funcs.push_back(kMainMain);
        } else {
            funcs.push_back(kGoexit);
        }
        funcs.push_back(m_entries[rng.skewed(m_entries.size(), 9, 10)]);
        while (funcs.size() < kMaxStack - 6) {
            const Func &f = m_funcs[funcs.back()];
            if (f.recursive && rng.chance(1, 3)) {
                funcs.push_back(funcs.back());
                continue;
            }
            if (f.callees.empty() || rng.chance(1, 25))
                break;
            funcs.push_back(f.callees[rng.skewed(f.callees.size())]);
        }
        if (rng.chance(30, 100)) {   // allocations that the profiler sees inside the runtime's allocator
            funcs.push_back(kNewobject + uint32_t(rng.below(4)));
            funcs.push_back(kMallocgc);
            if (rng.chance(1, 10)) {
                funcs.push_back(kNextFree);
                funcs.push_back(kRefill);
                if (rng.chance(1, 2))
                    funcs.push_back(kCacheSpan);
            } else if (rng.chance(1, 10)) {
                funcs.push_back(kMemclr);
            }
        }
        // The site of a frame is where it calls the next one (fixed per edge), or a random PC for the leaf.
        sites.resize(funcs.size());
        for (size_t i = 0; i + 1 < funcs.size(); ++i)
            sites[i] = uint32_t(mix(funcs[i], funcs[i + 1]) % m_funcs[funcs[i]].sites);
        sites.back() = uint32_t(rng.below(m_funcs[funcs.back()].sites));
    }

    Func &func(uint32_t i) { return m_funcs[i]; }
    const Func &func(uint32_t i) const { return m_funcs[i]; }
    size_t size() const { return m_funcs.size(); }

    static constexpr uint32_t kGoexit = 0, kRuntimeMain = 1, kMainMain = 2, kMallocgc = 3, kNewobject = 4,
                              kNextFree = 8, kRefill = 9, kCacheSpan = 10, kMemclr = 11, kFirstUser = 12;

private:
    std::vector<Func> m_funcs;
    std::vector<uint32_t> m_entries;
    std::unordered_set<std::string> m_names;
};

// The parts of the profile that samples refer to: written once, after the samples.
class Tables {
public:
    explicit Tables(Program &program) : m_program(program), m_siteLocation(program.size() * kMaxSites, 0)
    {
        str("");
    }

    int64_t str(const std::string &s)
    {
        auto [it, inserted] = m_strings.try_emplace(s, int64_t(m_out.string_table_size()));
        if (inserted) {
            m_out.add_string_table(s);
            m_bytes += s.size() + 3;
        }
        return it->second;
    }

    // The location of frames [first, last] of a stack, root first, where frames after `first` are inlined
    // into it: one PC of the physical function `first`, with a line per frame, innermost first.
    uint64_t location(const std::vector<uint32_t> &funcs, const std::vector<uint32_t> &sites, size_t first,
                      size_t last)
    {
        uint64_t *slot = nullptr;
        std::string key;
        if (first == last) {
            slot = &m_siteLocation[size_t(funcs[first]) * kMaxSites + sites[first]];
        } else {
            for (size_t i = first; i <= last; ++i)
                key.append(reinterpret_cast<const char *>(&funcs[i]), 4).append(reinterpret_cast<const char *>(&sites[i]), 4);
            slot = &m_inlineLocation[key];
        }
        if (*slot != 0)
            return *slot;
        pb::Location *loc = m_out.add_location();
        *slot = uint64_t(m_out.location_size());
        loc->set_id(*slot);
        const Func &outer = m_program.func(funcs[first]);
        loc->set_mapping_id(outer.mapping + 1);
        loc->set_address(kMappings[outer.mapping].start + outer.base + 0x10 * sites[first] + 5);
        for (size_t i = last + 1; i-- > first;) {
            pb::Line *line = loc->add_line();
            line->set_function_id(functionId(funcs[i]));
            line->set_line(m_program.func(funcs[i]).startLine + 3 + 7 * int64_t(sites[i]));
        }
        m_bytes += 14 + 8 * (last - first + 1);
        return *slot;
    }

    // Estimated size of what finish() adds, to stop the samples in time.
    uint64_t pendingBytes() const { return m_bytes; }
    uint64_t functionCount() const { return uint64_t(m_out.function_size()); }
    uint64_t locationCount() const { return uint64_t(m_out.location_size()); }

    pb::Profile &finish(uint64_t seed)
    {
        for (size_t m = 0; m < std::size(kMappings); ++m) {
            pb::Mapping *mapping = m_out.add_mapping();
            mapping->set_id(m + 1);
            mapping->set_memory_start(kMappings[m].start);
            mapping->set_memory_limit(kMappings[m].limit);
            mapping->set_filename(str(kMappings[m].file));
            mapping->set_build_id(str(kMappings[m].buildId));
            mapping->set_has_functions(true);
            mapping->set_has_filenames(m == 0);
            mapping->set_has_line_numbers(m == 0);
            mapping->set_has_inline_frames(m == 0);
        }
        for (auto [type, unit] : {std::pair{"alloc_objects", "count"}, {"alloc_space", "bytes"},
                                  {"inuse_objects", "count"}, {"inuse_space", "bytes"}}) {
            pb::ValueType *vt = m_out.add_sample_type();
            vt->set_type(str(type));
            vt->set_unit(str(unit));
        }
        m_out.set_default_sample_type(str("alloc_space"));
        m_out.mutable_period_type()->set_type(str("space"));
        m_out.mutable_period_type()->set_unit(str("bytes"));
        m_out.set_period(524288);
        m_out.set_time_nanos(int64_t(1700000000) * 1000000000 + int64_t(seed % 1000000) * 1000);
        m_out.set_duration_nanos(int64_t(30) * 1000000000);
        return m_out;
    }

private:
    uint64_t functionId(uint32_t index)
    {
        Func &f = m_program.func(index);
        if (f.id == 0) {
            pb::Function *fn = m_out.add_function();
            f.id = uint64_t(m_out.function_size());
            fn->set_id(f.id);
            fn->set_name(str(f.name));
            fn->set_system_name(str(f.name));
            fn->set_filename(str(f.file));
            fn->set_start_line(f.startLine);
            m_bytes += 16;
        }
        return f.id;
    }

    Program &m_program;
    pb::Profile m_out;
    std::unordered_map<std::string, int64_t> m_strings;
    std::vector<uint64_t> m_siteLocation;                  // (function, site) -> location id, 0 = none yet
    std::unordered_map<std::string, uint64_t> m_inlineLocation;
    uint64_t m_bytes = 0;
};

uint32_t defaultFunctions(const GeneratorOptions &o)
{
    if (o.functions)
        return std::max<uint32_t>(o.functions, Program::kFirstUser + 1);
    if (o.targetNodes)
        return uint32_t(2000 + o.targetNodes / 40);
    // ~4k functions at 10 MB, ~13k at 100 MB, ~28k at 500 MB.
    return uint32_t(4000 * std::sqrt(double(o.targetBytes) / double(10u << 20)));
}

}   // namespace

GeneratorStats generateProfile(const GeneratorOptions &options, const std::function<void(std::string_view)> &sink)
{
    Program program(options.programSeed, defaultFunctions(options));
    Tables tables(program);
    Rng rng(mix(options.sampleSeed, 0x5eed));
    GeneratorStats stats;
    FlatHashMap tree(1 << 16);   // (parent node, function) -> node: the call tree pprof and qflame will build
    uint64_t treeSize = 1;

    const int64_t handlerKey = tables.str("handler"), tenantKey = tables.str("tenant"), bytesKey = tables.str("bytes");
    std::vector<int64_t> handlers, tenants;
    static const char *const resources[] = {"users", "orders", "invoices", "carts", "search", "sessions", "items",
                                            "reports", "tokens", "uploads"};
    for (int i = 0; i < 40; ++i)
        handlers.push_back(tables.str("/api/v" + std::to_string(1 + i / 10) + "/" + resources[i % 10]));
    for (int i = 0; i < 500; ++i)
        tenants.push_back(tables.str("tenant-" + std::to_string(1000 + i)));

    pb::Profile batch;
    std::string buffer;
    std::vector<uint32_t> funcs, sites;
    uint64_t depthSum = 0;
    auto done = [&] {
        if (options.targetNodes)
            return treeSize >= options.targetNodes;
        return stats.bytes + tables.pendingBytes() >= options.targetBytes;
    };
    auto flush = [&] {
        buffer.clear();
        batch.SerializeToString(&buffer);
        stats.bytes += buffer.size();
        sink(buffer);
        batch.Clear();
    };
    while (!done()) {
        program.walk(rng, funcs, sites);
        pb::Sample *s = batch.add_sample();
        // Leaf first: group each physical function with the frames inlined into it.
        size_t last = funcs.size() - 1;
        for (size_t i = funcs.size(); i-- > 0;) {
            if (i > 0 && program.func(funcs[i]).inlined && funcs[i - 1] != funcs[i])
                continue;
            s->add_location_id(tables.location(funcs, sites, i, last));
            last = i - 1;
        }
        // Heap profile values: objects, bytes, and what of it is still live. The size class follows the
        // allocating site.
        const uint64_t size = uint64_t(8) << (mix(funcs.back(), sites.back()) % 12);
        int64_t objects = int64_t(1 + rng.below(4));
        if (rng.chance(1, 10))
            objects += int64_t(rng.below(2000));
        const int64_t live = rng.chance(3, 5) ? int64_t(rng.below(uint64_t(objects) + 1)) : 0;
        for (int64_t v : {objects, objects * int64_t(size), live, live * int64_t(size)})
            s->add_value(v);
        pb::Label *bytes = s->add_label();
        bytes->set_key(bytesKey);
        bytes->set_num(int64_t(size));
        if (rng.chance(1, 2)) {
            pb::Label *l = s->add_label();
            l->set_key(handlerKey);
            l->set_str(handlers[rng.skewed(handlers.size())]);
        }
        if (rng.chance(3, 10)) {
            pb::Label *l = s->add_label();
            l->set_key(tenantKey);
            l->set_str(tenants[rng.below(tenants.size())]);
        }
        uint32_t node = 0;
        for (uint32_t f : funcs) {
            bool inserted = false;
            node = tree.findOrInsert((uint64_t(node) << 32) | f, uint32_t(treeSize), &inserted);
            treeSize += inserted;
        }
        ++stats.samples;
        depthSum += funcs.size();
        stats.maxDepth = std::max<uint32_t>(stats.maxDepth, uint32_t(funcs.size()));
        if (batch.sample_size() == 4096)
            flush();
    }
    flush();
    buffer.clear();
    tables.finish(options.sampleSeed).SerializeToString(&buffer);
    stats.bytes += buffer.size();
    sink(buffer);
    stats.locations = tables.locationCount();
    stats.functions = tables.functionCount();
    stats.treeNodes = treeSize;
    stats.meanDepth = stats.samples ? double(depthSum) / double(stats.samples) : 0;
    return stats;
}

std::string generateProfileBytes(const GeneratorOptions &options, GeneratorStats *stats)
{
    std::string out;
    const GeneratorStats s = generateProfile(options, [&](std::string_view piece) { out.append(piece); });
    if (stats)
        *stats = s;
    return out;
}

GeneratorStats writeGzipProfile(const GeneratorOptions &options, const std::string &path)
{
    std::unique_ptr<FILE, int (*)(FILE *)> file(fopen(path.c_str(), "wb"), fclose);
    if (!file)
        throw std::runtime_error(path + ": cannot create");
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
    std::vector<unsigned char> out(1 << 20);
    auto pump = [&](std::string_view in, int flush) {
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        z.avail_in = uInt(in.size());
        do {
            z.next_out = out.data();
            z.avail_out = uInt(out.size());
            deflate(&z, flush);
            const size_t n = out.size() - z.avail_out;
            if (n && fwrite(out.data(), 1, n, file.get()) != n)
                throw std::runtime_error(path + ": write failed");
        } while (z.avail_out == 0);
    };
    GeneratorStats stats;
    try {
        stats = generateProfile(options, [&](std::string_view piece) { pump(piece, Z_NO_FLUSH); });
        pump({}, Z_FINISH);
    } catch (...) {
        deflateEnd(&z);
        throw;
    }
    deflateEnd(&z);
    if (fflush(file.get()) != 0)
        throw std::runtime_error(path + ": write failed");
    return stats;
}

}   // namespace qflame::bench
