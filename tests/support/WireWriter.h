// Protobuf wire format written by hand, for messages the generated classes cannot make: fields in any order or
// encoding, unknown fields, groups, cut or overlong varints (the hand-written decoders' tests).
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdint>
#include <random>
#include <string>

namespace qflame::test {

struct Wire {
    std::string bytes;
    void varint(uint64_t v)
    {
        google::protobuf::io::StringOutputStream stream(&bytes);
        google::protobuf::io::CodedOutputStream(&stream).WriteVarint64(v);
    }
    void tag(int field, int wireType) { varint(uint64_t(field) << 3 | uint64_t(wireType)); }
    void varintField(int field, uint64_t v) { tag(field, 0), varint(v); }
    void bytesField(int field, const std::string &b) { tag(field, 2), varint(b.size()), bytes += b; }
};

// Up to two small edits of a message, as a fuzzer makes them: a byte overwritten, a byte inserted (mostly below
// 0x80, so that varints stay whole more often), up to four bytes erased, or the end cut off.
inline void mutateMessage(std::string &m, std::mt19937 &rng)
{
    const int edits = int(rng() % 3);
    for (int e = 0; e < edits && !m.empty(); ++e) {
        const size_t at = rng() % m.size();
        switch (rng() % 4) {
        case 0: m[at] = char(rng()); break;
        case 1: m.insert(at, 1, char(rng() % 4 ? rng() % 0x80 : rng())); break;
        case 2: m.erase(at, 1 + rng() % 4); break;
        case 3: m.resize(at); break;
        }
    }
}

}   // namespace qflame::test
