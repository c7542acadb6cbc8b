#include "BenchTrees.h"

#include "formats/ProfileInput.h"
#include "profile.pb.h"
#include "tree/CallTreeBuilder.h"

#include <zlib.h>

#include <map>
#include <stdexcept>

namespace qflame::bench {

std::string gzipBytes(std::string_view raw)
{
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
    std::string out(deflateBound(&z, uLong(raw.size())), '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.data()));
    z.avail_in = uInt(raw.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("zlib: deflate did not finish");
    return out;
}

namespace {

BenchProfile make(const GeneratorOptions &options, const std::string &name)
{
    BenchProfile p;
    p.raw = generateProfileBytes(options, &p.stats);
    p.gzip = gzipBytes(p.raw);
    p.profile = readPprof(p.raw, name);
    return p;
}

}   // namespace

const BenchProfile &profileOfSize(uint64_t megabytes)
{
    static std::map<uint64_t, BenchProfile> cache;
    auto it = cache.find(megabytes);
    if (it == cache.end()) {
        GeneratorOptions o;
        o.targetBytes = megabytes << 20;
        it = cache.emplace(megabytes, make(o, std::string("gen-").append(std::to_string(megabytes)).append("MB"))).first;
    }
    return it->second;
}

const BenchProfile &profileOfNodes(uint64_t nodes, uint64_t sampleSeed)
{
    static std::map<std::pair<uint64_t, uint64_t>, BenchProfile> cache;
    auto it = cache.find({nodes, sampleSeed});
    if (it == cache.end()) {
        GeneratorOptions o;
        o.targetNodes = nodes;
        o.sampleSeed = sampleSeed;
        it = cache.emplace(std::pair{nodes, sampleSeed}, make(o, std::string("gen-").append(std::to_string(nodes)).append("-nodes"))).first;
    }
    return it->second;
}

std::shared_ptr<const CallTree> treeOfNodes(uint64_t nodes, uint64_t sampleSeed)
{
    static std::map<std::pair<uint64_t, uint64_t>, std::shared_ptr<const CallTree>> cache;
    auto &tree = cache[{nodes, sampleSeed}];
    if (!tree) {
        const Profile &p = *profileOfNodes(nodes, sampleSeed).profile;
        tree = CallTreeBuilder::build({profileOfNodes(nodes, sampleSeed).profile}, size_t(p.effectiveDefaultType()));
    }
    return tree;
}

const Profile &distinctFunctionProfile(uint64_t nodes)
{
    static std::map<uint64_t, std::shared_ptr<const Profile>> cache;
    auto &slot = cache[nodes];
    if (slot)
        return *slot;
    namespace pb = perftools::profiles;
    pb::Profile out;
    out.add_string_table("");
    out.add_string_table("samples");
    out.add_string_table("count");
    pb::ValueType *vt = out.add_sample_type();
    vt->set_type(1);
    vt->set_unit(2);
    // Node i (1-based) hangs under a random earlier node (a random recursive tree: depth ~ ln n) and is
    // function i at location i.
    std::vector<uint32_t> parent(nodes, 0);
    std::vector<uint8_t> inner(nodes, 0);
    uint64_t state = 0x2545f4914f6cdd1dull;
    for (uint64_t i = 1; i < nodes; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        parent[i] = uint32_t(state % i);
        inner[parent[i]] = 1;
        out.add_string_table(std::string("f").append(std::to_string(i)));
        pb::Function *f = out.add_function();
        f->set_id(i);
        f->set_name(int64_t(i) + 2);
        pb::Location *l = out.add_location();
        l->set_id(i);
        l->set_address(0x1000 + 16 * i);
        l->add_line()->set_function_id(i);
    }
    for (uint64_t i = 1; i < nodes; ++i) {
        if (inner[i])
            continue;
        pb::Sample *s = out.add_sample();
        for (uint32_t n = uint32_t(i); n != 0; n = parent[n])
            s->add_location_id(n);
        s->add_value(1);
    }
    slot = readPprof(out.SerializeAsString(), std::string("distinct-").append(std::to_string(nodes)));
    return *slot;
}

}   // namespace qflame::bench
